import { Controller, Get, Redirect } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { resolve } from 'node:path';
import { Public } from '../auth/auth.decorators';

/** Where the console is served from (src/http/*.platform.ts). */
export const CONSOLE_PATH = '/console/';
/**
 * Its build, console/dist in the project. This file runs compiled from dist/src/console/
 * (npm start) or from source in src/console/ (the tests): the project is one level further
 * up when compiled.
 */
export const CONSOLE_DIST = resolve(
  __dirname,
  __filename.endsWith('.js') ? '../../..' : '../..',
  'console/dist',
);

/** `/` is the console's. */
@ApiExcludeController()
@Controller()
export class ConsoleController {
  @Get()
  @Public()
  @Redirect(CONSOLE_PATH, 302)
  home(): void {}
}

import { Controller, Get, Redirect } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../auth/auth.decorators';

/** Where the console is served from (src/http/*.platform.ts), and its build. */
export const CONSOLE_PATH = '/console/';
export const CONSOLE_DIST = `${__dirname}/../../console/dist`;

/** `/` is the console's. */
@ApiExcludeController()
@Controller()
export class ConsoleController {
  @Get()
  @Public()
  @Redirect(CONSOLE_PATH, 302)
  home(): void {}
}

import { Controller, Get, Redirect } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../http/caller.decorators';
import { CONSOLE_PATH } from '../http/console-files';

/** `/` is the console's. */
@ApiExcludeController()
@Controller()
export class ConsoleController {
  @Get()
  @Public()
  @Redirect(CONSOLE_PATH, 302)
  home(): void {}
}

import { Module } from '@nestjs/common';
import { ConsoleController } from './console.controller';

/** The web console (console/): its files are served by the platform, `/` sends people there. */
@Module({ controllers: [ConsoleController] })
export class ConsoleModule {}

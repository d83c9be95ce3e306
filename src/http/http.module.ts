import { Module } from '@nestjs/common';
import { StatementSlots } from './statement-slots';

/** What the HTTP edge gives the feature modules: the turns of long statements per user. */
@Module({
  providers: [StatementSlots],
  exports: [StatementSlots],
})
export class HttpModule {}

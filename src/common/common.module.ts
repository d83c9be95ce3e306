import { Global, Module } from '@nestjs/common';
import { RequestContext } from './request-context';
import { Sealer } from './sealer.service';
import { ServerSecrets } from './server-secrets.service';
import { StatementSlots } from '../database/statement-slots';

@Global()
@Module({
  providers: [RequestContext, ServerSecrets, Sealer, StatementSlots],
  exports: [RequestContext, ServerSecrets, Sealer, StatementSlots],
})
export class CommonModule {}

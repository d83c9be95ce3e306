import { Global, Module } from '@nestjs/common';
import { Sealer } from './sealer.service';
import { ServerSecrets } from './server-secrets.service';
import { StatementSlots } from '../database/statement-slots';

@Global()
@Module({
  providers: [ServerSecrets, Sealer, StatementSlots],
  exports: [ServerSecrets, Sealer, StatementSlots],
})
export class CommonModule {}

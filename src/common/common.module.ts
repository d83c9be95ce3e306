import { Global, Module } from '@nestjs/common';
import { RequestContext } from './request-context';
import { Sealer } from './sealer.service';
import { ServerSecrets } from './server-secrets.service';

@Global()
@Module({
  providers: [RequestContext, ServerSecrets, Sealer],
  exports: [RequestContext, ServerSecrets, Sealer],
})
export class CommonModule {}

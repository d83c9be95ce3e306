import { Global, Module } from '@nestjs/common';
import { RequestContext } from './request-context';
import { ServerSecrets } from './server-secrets.service';

@Global()
@Module({ providers: [RequestContext, ServerSecrets], exports: [RequestContext, ServerSecrets] })
export class CommonModule {}

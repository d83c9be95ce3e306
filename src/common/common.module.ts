import { Global, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { RequestContext, RequestContextMiddleware } from './request-context';
import { Sealer } from './sealer.service';
import { ServerSecrets } from './server-secrets.service';

@Global()
@Module({
  providers: [RequestContext, ServerSecrets, Sealer],
  exports: [RequestContext, ServerSecrets, Sealer],
})
export class CommonModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RequestContextMiddleware).forRoutes('*');
  }
}

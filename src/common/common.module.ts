import { Global, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { RequestContext, RequestContextMiddleware } from './request-context';
import { ServerSecrets } from './server-secrets.service';

@Global()
@Module({ providers: [RequestContext, ServerSecrets], exports: [RequestContext, ServerSecrets] })
export class CommonModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RequestContextMiddleware).forRoutes('*');
  }
}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessModule } from '../access/access.module';
import { ChangesModule } from '../changes/changes.module';
import { DataModule } from '../data/data.module';
import { EventsModule } from '../events/events.module';
import { FetchModule } from '../fetch/fetch.module';
import { ModelModule } from '../model/model.module';
import { WEBHOOK_ENTITIES } from './entities';
import { HostResolver, WebhookAddresses } from './webhook-addresses';
import { WebhookCondition } from './webhook-condition';
import { WebhookDeliveries } from './webhook-deliveries.service';
import { WebhookPayloads } from './webhook-payloads';
import { WebhookRouter } from './webhook-router';
import { WebhookTransport } from './webhook-transport';
import { WebhookHooks } from './webhook.hooks';
import { WebhookRepository } from './webhook.repository';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/**
 * Webhooks: an entity type administrators manage, fed the change log's events through the
 * event dispatcher, each delivery signed, logged, retried as a job and replayable.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature(WEBHOOK_ENTITIES),
    AccessModule,
    ChangesModule,
    DataModule,
    EventsModule,
    FetchModule,
    ModelModule,
  ],
  controllers: [WebhooksController],
  providers: [
    HostResolver,
    WebhookAddresses,
    WebhookCondition,
    WebhookDeliveries,
    WebhookHooks,
    WebhookPayloads,
    WebhookRepository,
    WebhookRouter,
    WebhookTransport,
    WebhooksService,
  ],
})
export class WebhooksModule {}

import { WebhookDelivery } from './webhook-delivery.entity';
import { Webhook } from './webhook.entity';

export const WEBHOOK_ENTITIES = [Webhook, WebhookDelivery];

import { fetchRows } from './fetch';
import { call, getJson, jsonBody } from './http';

export interface WebhookRow {
  key: number;
  name: string;
  url: string;
  events: string;
  condition: string | null;
  active: boolean;
  disabled_reason: string | null;
}

export interface DeliveryAttempt {
  at: string;
  status?: number;
  durationMs: number;
  error?: string;
}

export interface Delivery {
  key: number;
  eventId: string;
  eventType: string;
  state: 'pending' | 'delivered' | 'retrying' | 'failed' | 'cancelled';
  attempts: DeliveryAttempt[];
  replayOf: number | null;
  createdAt: string;
  nextAttemptAt: string | null;
}

export interface NewWebhook {
  name: string;
  url: string;
  events: string;
  condition?: string;
}

export const webhooks = () =>
  fetchRows(
    'FETCH webhook (key, name, url, events, condition, active, disabled_reason) ORDER BY name',
  ) as Promise<unknown> as Promise<WebhookRow[]>;

/** The signing secret is in the answer this once. */
export const createWebhook = (webhook: NewWebhook) =>
  getJson<{ key: number; secret: string }>('/rest/webhooks', jsonBody('POST', webhook));

export const newSecret = (key: number) =>
  getJson<{ secret: string }>(`/rest/webhooks/${key}/secret`, { method: 'POST' });

export const sendTest = (key: number) =>
  getJson<{ delivery: number }>(`/rest/webhooks/${key}/test`, { method: 'POST' });

export const deliveries = (key: number) => getJson<Delivery[]>(`/rest/webhooks/${key}/deliveries`);

export const replay = (key: number, delivery: number) =>
  getJson<{ delivery: number }>(`/rest/webhooks/${key}/deliveries/${delivery}/replay`, {
    method: 'POST',
  });

/** Turned on or off through the entity API, as any property of the record. */
export async function setActive(key: number, active: boolean): Promise<void> {
  await call(
    `/rest/entity/webhook/${key}`,
    jsonBody('POST', { entity_name: 'webhook', properties: { active } }),
  );
}

import { call, getJson, jsonBody } from './http';

export interface ApiKeyInfo {
  id: number;
  name: string;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

export const apiKeys = () => getJson<ApiKeyInfo[]>('/auth/api-keys');

/** The new key's secret is in `key`: shown this once. */
export const createApiKey = (name: string, expiresAt?: string) =>
  getJson<{ id: number; name: string; key: string }>(
    '/auth/api-keys',
    jsonBody('POST', expiresAt ? { name, expiresAt } : { name }),
  );

export async function revokeApiKey(id: number): Promise<void> {
  await call(`/auth/api-keys/${id}`, { method: 'DELETE' });
}

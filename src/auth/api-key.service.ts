import { Injectable, NotFoundException } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { systemScope, tenantOf } from '../access/access.tenant';
import { Identity } from '../common/identity';
import { newSecret, sha256 } from '../common/secrets';
import { Environment } from '../config/environment';
import { ApiKeyRepository, ApiKeyRow, ApiKeyUser } from './api-key.repository';
import { identityOf } from './identity.mapper';
import { Actor, actorOf, ChangeLog } from '../changes/change-log.service';
import { Transactions } from '../database/transactions.service';
import { userEvent } from './security-events';

export const API_KEY_PREFIX = 'atr_';
const MAX_CACHED_KEYS = 10_000;

export interface CreatedApiKey {
  id: number;
  name: string;
  key: string;
  expiresAt: Date | null;
}

interface CachedIdentity {
  apiKeyId: number;
  identity: Identity;
  validUntil: number;
}

/** A key is looked up by its secret before any organization is known. */
const SIGN_IN = systemScope('sign-in');

/**
 * API keys: random secrets shown once and stored as SHA-256 hashes. Lookups are cached
 * for a few seconds (API_KEY_CACHE_SECONDS), so a revocation made on another instance
 * takes effect within that time; one made here takes effect at once.
 */
@Injectable()
export class ApiKeyService {
  private readonly cache = new Map<string, CachedIdentity>();
  /** Lookups under way: concurrent requests with the same key share one round trip. */
  private readonly inFlight = new Map<string, Promise<Identity | undefined>>();
  /** Bumped by every revocation, so a lookup that started before it is not cached. */
  private revocations = 0;
  private readonly cacheMs: number;

  constructor(
    private readonly apiKeys: ApiKeyRepository,
    private readonly transactions: Transactions,
    private readonly changeLog: ChangeLog,
    config: ConfigService<Environment, true>,
  ) {
    this.cacheMs = config.get('API_KEY_CACHE_SECONDS', { infer: true }) * 1000;
  }

  /** A new key of `holder`'s; `actor` made it (the holder, an administrator's CLI). */
  async create(
    holder: Identity,
    name: string,
    expiresAt?: Date,
    actor: Actor = actorOf(holder),
  ): Promise<CreatedApiKey> {
    const key = API_KEY_PREFIX + newSecret();
    const tenant = tenantOf(holder);
    const saved = await this.transactions.run(async (tx) => {
      const hash = sha256(key);
      const row = await this.apiKeys.insert(
        tenant,
        holder.userKey,
        name,
        hash,
        expiresAt ?? null,
        tx,
      );
      if (!row) throw new NotFoundException(`No user ${holder.userKey}`);
      this.changeLog.record(tx, actor, [
        userEvent('api_key_created', row.user, { apiKey: row.id, name: row.name }),
      ]);
      return row;
    });
    return { id: saved.id, name: saved.name, key, expiresAt: saved.expiresAt };
  }

  list(userKey: number): Promise<ApiKeyRow[]> {
    return this.apiKeys.listOf(userKey);
  }

  async revoke(holder: Identity, apiKeyId: number, actor: Actor = actorOf(holder)): Promise<void> {
    await this.transactions.run(async (tx) => {
      const tenant = tenantOf(holder);
      const revoked = await this.apiKeys.revoke(tenant, holder.userKey, apiKeyId, tx);
      if (!revoked) throw new NotFoundException(`API key ${apiKeyId} not found`);
      this.changeLog.record(tx, actor, [
        userEvent('api_key_revoked', revoked.user, { apiKey: apiKeyId, name: revoked.name }),
      ]);
    });
    this.revocations++;
    for (const [hash, cached] of this.cache) {
      if (cached.apiKeyId === apiKeyId) this.cache.delete(hash);
    }
  }

  /** The identity a key stands for, or undefined when it is unknown, revoked or expired. */
  async resolve(secret: string): Promise<Identity | undefined> {
    const hash = sha256(secret);
    const cached = this.cache.get(hash);
    if (cached && cached.validUntil > Date.now()) return cached.identity;
    this.cache.delete(hash);
    let lookup = this.inFlight.get(hash);
    if (!lookup) {
      lookup = this.lookUp(hash).finally(() => this.inFlight.delete(hash));
      this.inFlight.set(hash, lookup);
    }
    return lookup;
  }

  private async lookUp(hash: string): Promise<Identity | undefined> {
    const revocations = this.revocations;
    const row = await this.apiKeys.use(SIGN_IN, hash);
    if (!row) return undefined;
    const identity = { ...identityOf(row, 'api-key', row.locale), via: `api-key ${row.apiKeyId}` };
    if (revocations === this.revocations) this.remember(hash, row, identity);
    return identity;
  }

  private remember(hash: string, row: ApiKeyUser, identity: Identity): void {
    if (this.cacheMs === 0) return;
    if (this.cache.size >= MAX_CACHED_KEYS) this.cache.clear();
    const expiry = row.expiresAt ? row.expiresAt.getTime() : Infinity;
    this.cache.set(hash, {
      apiKeyId: row.apiKeyId,
      identity,
      validUntil: Math.min(Date.now() + this.cacheMs, expiry),
    });
  }
}

import { Injectable, NotFoundException } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, IsNull, Repository } from 'typeorm';
import { Identity } from '../common/identity';
import { Environment } from '../config/environment';
import { ApiKey } from './entities';
import { IDENTITY_USER_COLUMNS, identityOf, IdentityUser } from './identity.mapper';
import { newSecret, sha256 } from '../common/secrets';

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

interface ApiKeyRow extends IdentityUser {
  api_key_id: number;
  expires_at: Date | null;
  locale: string;
}

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
    @InjectRepository(ApiKey) private readonly apiKeys: Repository<ApiKey>,
    @InjectDataSource() private readonly dataSource: DataSource,
    config: ConfigService<Environment, true>,
  ) {
    this.cacheMs = config.get('API_KEY_CACHE_SECONDS', { infer: true }) * 1000;
  }

  async create(userKey: number, name: string, expiresAt?: Date): Promise<CreatedApiKey> {
    const key = API_KEY_PREFIX + newSecret();
    const saved = await this.apiKeys.save(
      this.apiKeys.create({
        idUser: userKey,
        name,
        secretHash: sha256(key),
        expiresAt: expiresAt ?? null,
      }),
    );
    return { id: saved.key, name: saved.name, key, expiresAt: saved.expiresAt };
  }

  list(userKey: number): Promise<ApiKey[]> {
    return this.apiKeys.find({
      where: { idUser: userKey, revokedAt: IsNull() },
      order: { key: 'ASC' },
    });
  }

  async revoke(userKey: number, apiKeyId: number): Promise<void> {
    const result = await this.apiKeys.update(
      { key: apiKeyId, idUser: userKey, revokedAt: IsNull() },
      { revokedAt: () => 'now()' },
    );
    if (!result.affected) throw new NotFoundException(`API key ${apiKeyId} not found`);
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
    const [rows] = await this.dataSource.query<[ApiKeyRow[], number]>(
      `UPDATE api_key k SET last_used_at = now()
         FROM "user" u
        WHERE k.secret_hash = $1 AND u.key = k.id_user AND u.active
          AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())
      RETURNING k.key AS api_key_id, k.expires_at, u.locale, ${IDENTITY_USER_COLUMNS}`,
      [hash],
    );
    const row = rows[0];
    if (!row) return undefined;
    const identity = identityOf(row, 'api-key', row.locale);
    if (revocations === this.revocations) this.remember(hash, row, identity);
    return identity;
  }

  private remember(hash: string, row: ApiKeyRow, identity: Identity): void {
    if (this.cacheMs === 0) return;
    if (this.cache.size >= MAX_CACHED_KEYS) this.cache.clear();
    const expiry = row.expires_at ? row.expires_at.getTime() : Infinity;
    this.cache.set(hash, {
      apiKeyId: row.api_key_id,
      identity,
      validUntil: Math.min(Date.now() + this.cacheMs, expiry),
    });
  }
}

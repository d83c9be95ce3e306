import { Injectable } from '@nestjs/common';
import { SystemScope, systemScope, Tenant } from '../access/access.tenant';
import { SAMPLE_TENANT } from '../access/scope.samples';
import { GenerateSql, IN_TRANSACTION } from '../database/generate-sql';
import { Transaction } from '../database/transaction';
import { Sql } from '../database/sql.service';
import { IDENTITY_USER_COLUMNS, IdentityUser } from './identity.mapper';

/** An API key as its owner sees it listed: never its secret. */
export interface ApiKeyRow {
  id: number;
  name: string;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
}

/** A key's user, as a request made with the key is authenticated. */
export interface ApiKeyUser extends IdentityUser {
  apiKeyId: number;
  expiresAt: Date | null;
  locale: string;
}

/** A key's user, as a security event about the key names it. */
export interface KeyUser {
  key: number;
  userName: string;
  idOrganization: number;
  idBusinessUnit: number;
}

const KEY_USER_COLUMNS = `u.key, u.user_name AS "userName", u.id_organization AS "idOrganization",
  u.id_business_unit AS "idBusinessUnit"`;

const KEY_COLUMNS = `key AS id, name, created_at AS "createdAt", expires_at AS "expiresAt",
  last_used_at AS "lastUsedAt"`;

/** The SQL of `api_key`: keys are found by the SHA-256 of their secret. */
@Injectable()
export class ApiKeyRepository {
  constructor(private readonly sql: Sql) {}

  /** A new key, and its user as a security event names it. */
  @GenerateSql({ params: [SAMPLE_TENANT, 1, 'reporting job', 'sha256', null, IN_TRANSACTION] })
  async insert(
    tenant: Tenant,
    userKey: number,
    name: string,
    secretHash: string,
    expiresAt: Date | null,
    tx?: Transaction,
  ): Promise<(ApiKeyRow & { user: KeyUser }) | undefined> {
    const row = await this.sql.row<ApiKeyRow & KeyUser>(
      `WITH k AS (
         INSERT INTO api_key (id_user, name, secret_hash, expires_at)
         SELECT key, $2, $3, $4 FROM "user" WHERE key = $1 AND id_organization = $5
         RETURNING ${KEY_COLUMNS}, id_user
       )
       SELECT k.id, k.name, k."createdAt", k."expiresAt", k."lastUsedAt", ${KEY_USER_COLUMNS}
         FROM k JOIN "user" u ON u.key = k.id_user AND u.id_organization = $5`,
      [userKey, name, secretHash, expiresAt, tenant.organizationKey],
      tx,
    );
    if (!row) return undefined;
    const { key, userName, idOrganization, idBusinessUnit, ...apiKey } = row;
    return { ...apiKey, user: { key, userName, idOrganization, idBusinessUnit } };
  }

  /** A user's keys that are not revoked, oldest first. */
  @GenerateSql({ params: [1] })
  listOf(userKey: number): Promise<ApiKeyRow[]> {
    return this.sql.rows(
      `SELECT ${KEY_COLUMNS} FROM api_key WHERE id_user = $1 AND revoked_at IS NULL ORDER BY key`,
      [userKey],
    );
  }

  /**
   * Revokes a key of the user's: the key's name and its user, or undefined when the user
   * has none such (or it is revoked).
   */
  @GenerateSql({ params: [SAMPLE_TENANT, 1, 1, IN_TRANSACTION] })
  async revoke(
    tenant: Tenant,
    userKey: number,
    apiKeyId: number,
    tx?: Transaction,
  ): Promise<{ name: string; user: KeyUser } | undefined> {
    const row = await this.sql.row<KeyUser & { name: string }>(
      `UPDATE api_key k SET revoked_at = now() FROM "user" u
        WHERE k.key = $1 AND k.id_user = $2 AND k.revoked_at IS NULL AND u.key = k.id_user
          AND u.id_organization = $3
      RETURNING k.name, ${KEY_USER_COLUMNS}`,
      [apiKeyId, userKey, tenant.organizationKey],
      tx,
    );
    if (!row) return undefined;
    const { name, ...user } = row;
    return { name, user };
  }

  /**
   * The user of a live key (not revoked, not expired, its user active), noting the use in
   * the same statement.
   */
  @GenerateSql({ params: [systemScope('sign-in'), 'sha256'] })
  async use(_system: SystemScope, secretHash: string): Promise<ApiKeyUser | undefined> {
    const { rows } = await this.sql.changed<ApiKeyUser>(
      `UPDATE api_key k SET last_used_at = now()
         FROM "user" u
        WHERE k.secret_hash = $1 AND u.key = k.id_user AND u.active
          AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())
      RETURNING k.key AS "apiKeyId", k.expires_at AS "expiresAt", u.locale, ${IDENTITY_USER_COLUMNS}`,
      [secretHash],
    );
    return rows[0];
  }
}

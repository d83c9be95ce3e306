import { Injectable } from '@nestjs/common';
import { GenerateSql } from '../database/generate-sql';
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

const KEY_COLUMNS = `key AS id, name, created_at AS "createdAt", expires_at AS "expiresAt",
  last_used_at AS "lastUsedAt"`;

/** The SQL of `api_key`: keys are found by the SHA-256 of their secret. */
@Injectable()
export class ApiKeyRepository {
  constructor(private readonly sql: Sql) {}

  @GenerateSql({ params: [1, 'reporting job', 'sha256', null] })
  async insert(
    userKey: number,
    name: string,
    secretHash: string,
    expiresAt: Date | null,
  ): Promise<ApiKeyRow> {
    const row = await this.sql.row<ApiKeyRow>(
      `INSERT INTO api_key (id_user, name, secret_hash, expires_at) VALUES ($1, $2, $3, $4)
       RETURNING ${KEY_COLUMNS}`,
      [userKey, name, secretHash, expiresAt],
    );
    return row!;
  }

  /** A user's keys that are not revoked, oldest first. */
  @GenerateSql({ params: [1] })
  listOf(userKey: number): Promise<ApiKeyRow[]> {
    return this.sql.rows(
      `SELECT ${KEY_COLUMNS} FROM api_key WHERE id_user = $1 AND revoked_at IS NULL ORDER BY key`,
      [userKey],
    );
  }

  /** Revokes a key of the user's; false when it has none such (or it is revoked). */
  @GenerateSql({ params: [1, 1] })
  async revoke(userKey: number, apiKeyId: number): Promise<boolean> {
    const { count } = await this.sql.changed(
      `UPDATE api_key SET revoked_at = now()
        WHERE key = $1 AND id_user = $2 AND revoked_at IS NULL`,
      [apiKeyId, userKey],
    );
    return count > 0;
  }

  /**
   * The user of a live key (not revoked, not expired, its user active), noting the use in
   * the same statement.
   */
  @GenerateSql({ params: ['sha256'] })
  async use(secretHash: string): Promise<ApiKeyUser | undefined> {
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

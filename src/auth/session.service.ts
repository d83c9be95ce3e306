import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Identity } from '../common/identity';
import { Environment } from '../config/environment';
import { IDENTITY_USER_COLUMNS, identityOf, IdentityUser } from './identity.mapper';
import { newSecret, sha256 } from '../common/secrets';

/** How long the token before a rotation stays valid, for requests already in flight. */
const ROTATION_GRACE_SECONDS = 60;
/** Sliding expiry is written at most this often, so most requests only read. */
const TOUCH_INTERVAL_SECONDS = 30;
/** Expired rows are swept on login, at most this often per process. */
const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

export interface NewSession {
  key: number;
  token: string;
  csrfToken: string;
  locale: string;
}

/** What an OpenID sign-in's session stands on: the provider's access token, and its refresh. */
export interface SessionTokens {
  provider: string;
  accessExpiresAt: Date;
  /** Sealed (Sealer, purpose `refresh-token`). */
  refreshToken?: string;
}

export interface ResolvedSession {
  identity: Identity;
  /** Set when the token was old and has been replaced: the client must get the new one. */
  rotatedToken?: string;
  /** Set when the provider's access token has expired: refresh it, or the session ends. */
  expiredTokens?: { provider: string; refreshToken: string };
}

interface SessionRow extends IdentityUser {
  session_key: number;
  csrf_token: string;
  auth_method: Identity['authMethod'];
  locale: string;
  is_current_token: boolean;
  needs_rotation: boolean;
  oidc_provider: string | null;
  refresh_token: string | null;
  access_expired: boolean;
}

/**
 * Cookie sessions, kept in the database so several server instances share them.
 * Tokens are stored as SHA-256 hashes; the idle expiry slides, the absolute one does not.
 */
@Injectable()
export class SessionService {
  private readonly idleSeconds: number;
  private readonly absoluteSeconds: number;
  private readonly rotateSeconds: number;
  private lastSweep = 0;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    config: ConfigService<Environment, true>,
  ) {
    this.idleSeconds = config.get('SESSION_IDLE_MINUTES', { infer: true }) * 60;
    this.absoluteSeconds = config.get('SESSION_ABSOLUTE_HOURS', { infer: true }) * 3600;
    this.rotateSeconds = config.get('SESSION_ROTATE_MINUTES', { infer: true }) * 60;
  }

  async create(
    userKey: number,
    authMethod: Identity['authMethod'],
    locale: string,
    tokens?: SessionTokens,
  ): Promise<NewSession> {
    const token = newSecret();
    const csrfToken = newSecret();
    const [{ key }]: { key: number }[] = await this.dataSource.query(
      `INSERT INTO session (token_hash, csrf_token, id_user, auth_method, locale, expires_at,
                            oidc_provider, access_expires_at, refresh_token)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6), $7, $8, $9)
       RETURNING key`,
      [
        sha256(token),
        csrfToken,
        userKey,
        authMethod,
        locale,
        this.absoluteSeconds,
        tokens?.provider ?? null,
        tokens?.accessExpiresAt ?? null,
        tokens?.refreshToken ?? null,
      ],
    );
    await this.deleteExpired();
    return { key, token, csrfToken, locale };
  }

  /**
   * Finds the live session of a token and its user in one indexed round trip (the
   * sliding-expiry write rides along in the same statement when it is due).
   */
  async resolve(token: string): Promise<ResolvedSession | undefined> {
    const rows: SessionRow[] = await this.dataSource.query(
      `WITH found AS (
         SELECT s.key AS session_key, s.csrf_token, s.auth_method, s.locale,
                s.token_hash = $1 AS is_current_token,
                s.rotated_at < now() - make_interval(secs => $3) AS needs_rotation,
                s.last_seen_at < now() - make_interval(secs => $4) AS needs_touch,
                s.oidc_provider, s.refresh_token, s.access_expires_at <= now() AS access_expired,
                ${IDENTITY_USER_COLUMNS}
           FROM session s JOIN "user" u ON u.key = s.id_user
          WHERE (s.token_hash = $1 OR (s.previous_token_hash = $1 AND s.previous_valid_until > now()))
            AND s.expires_at > now()
            AND s.last_seen_at > now() - make_interval(secs => $2)
            AND u.active
            -- An OpenID session ends with its access token, unless a refresh token renews it.
            AND (s.access_expires_at IS NULL OR s.access_expires_at > now() OR s.refresh_token IS NOT NULL)
       ), touched AS (
         UPDATE session SET last_seen_at = now()
          WHERE key = (SELECT session_key FROM found WHERE needs_touch)
       )
       SELECT * FROM found`,
      [sha256(token), this.idleSeconds, this.rotateSeconds, TOUCH_INTERVAL_SECONDS],
    );
    const row = rows[0];
    if (!row) return undefined;
    const identity = identityOf(row, row.auth_method, row.locale, {
      key: row.session_key,
      csrfToken: row.csrf_token,
    });
    const rotatedToken =
      row.is_current_token && row.needs_rotation
        ? await this.rotate(row.session_key, token)
        : undefined;
    const expiredTokens =
      row.access_expired && row.oidc_provider && row.refresh_token
        ? { provider: row.oidc_provider, refreshToken: row.refresh_token }
        : undefined;
    return { identity, rotatedToken, expiredTokens };
  }

  /** The provider's renewed tokens; the session lives on. */
  async updateTokens(
    sessionKey: number,
    accessExpiresAt: Date,
    refreshToken?: string,
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE session SET access_expires_at = $2, refresh_token = coalesce($3, refresh_token)
        WHERE key = $1`,
      [sessionKey, accessExpiresAt, refreshToken ?? null],
    );
  }

  async end(sessionKey: number): Promise<void> {
    await this.dataSource.query(`DELETE FROM session WHERE key = $1`, [sessionKey]);
  }

  /** Ends the session a token belongs to; unknown tokens are ignored. */
  async endByToken(token: string): Promise<void> {
    const hash = sha256(token);
    await this.dataSource.query(
      `DELETE FROM session WHERE token_hash = $1 OR previous_token_hash = $1`,
      [hash],
    );
  }

  /** Ends a user's sessions but one; in `manager`'s transaction when given (a user's update). */
  async endOthers(
    userKey: number,
    keepSessionKey?: number,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    await manager.query(`DELETE FROM session WHERE id_user = $1 AND key IS DISTINCT FROM $2`, [
      userKey,
      keepSessionKey ?? null,
    ]);
  }

  /** Replaces an old token; a concurrent rotation of the same token wins once. */
  private async rotate(sessionKey: number, oldToken: string): Promise<string | undefined> {
    const token = newSecret();
    const [, affected] = await this.dataSource.query<[unknown, number]>(
      `UPDATE session
          SET previous_token_hash = token_hash,
              previous_valid_until = now() + make_interval(secs => $4),
              token_hash = $3, rotated_at = now()
        WHERE key = $1 AND token_hash = $2`,
      [sessionKey, sha256(oldToken), sha256(token), ROTATION_GRACE_SECONDS],
    );
    return affected === 1 ? token : undefined;
  }

  private async deleteExpired(): Promise<void> {
    if (Date.now() - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = Date.now();
    await this.dataSource.query(
      `DELETE FROM session
        WHERE expires_at < now() OR last_seen_at < now() - make_interval(secs => $1)`,
      [this.idleSeconds],
    );
  }
}

import { Injectable } from '@nestjs/common';
import { Identity } from '../common/identity';
import { SystemScope, systemScope } from '../access/access.tenant';
import { GenerateSql, IN_TRANSACTION } from '../database/generate-sql';
import { Sql } from '../database/sql.service';
import { Transaction } from '../database/transaction';
import { IDENTITY_USER_COLUMNS, IdentityUser } from './identity.mapper';

/** A session to insert: hashes of its tokens, never the tokens. */
export interface NewSessionRow {
  tokenHash: string;
  csrfToken: string;
  userKey: number;
  authMethod: Identity['authMethod'];
  locale: string;
  absoluteSeconds: number;
  oidcProvider: string | null;
  accessExpiresAt: Date | null;
  refreshToken: string | null;
}

/** A live session found by a token, with its user. */
export interface SessionRow extends IdentityUser {
  sessionKey: number;
  csrfToken: string;
  authMethod: Identity['authMethod'];
  locale: string;
  /** Whether the token is the current one (not the one before the last rotation). */
  isCurrentToken: boolean;
  needsRotation: boolean;
  oidcProvider: string | null;
  refreshToken: string | null;
  accessExpired: boolean;
}

/** How long sessions live and how often they are touched and rotated, in seconds. */
export interface SessionTimes {
  idleSeconds: number;
  rotateSeconds: number;
  touchSeconds: number;
}

const TIMES = { idleSeconds: 1800, rotateSeconds: 900, touchSeconds: 30 };

/** The user whose session ended. */
export interface SessionUser {
  key: number;
  userName: string;
  idOrganization: number;
  idBusinessUnit: number;
}

/** The SQL of `session`: tokens are found by their SHA-256. */
@Injectable()
export class SessionRepository {
  constructor(private readonly sql: Sql) {}

  @GenerateSql({
    params: [
      {
        tokenHash: 'sha256',
        csrfToken: 'csrf',
        userKey: 1,
        authMethod: 'session',
        locale: 'RO',
        absoluteSeconds: 43200,
        oidcProvider: null,
        accessExpiresAt: null,
        refreshToken: null,
      },
    ],
  })
  async insert(session: NewSessionRow): Promise<number> {
    const row = await this.sql.row<{ key: number }>(
      `INSERT INTO session (token_hash, csrf_token, id_user, auth_method, locale, expires_at,
                            oidc_provider, access_expires_at, refresh_token)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6), $7, $8, $9)
       RETURNING key`,
      [
        session.tokenHash,
        session.csrfToken,
        session.userKey,
        session.authMethod,
        session.locale,
        session.absoluteSeconds,
        session.oidcProvider,
        session.accessExpiresAt,
        session.refreshToken,
      ],
    );
    return row!.key;
  }

  /**
   * The live session of a token (the current one, or the one before the last rotation
   * within its grace) and its user, in one indexed round trip; the sliding expiry's write
   * rides along in the same statement when it is due.
   */
  @GenerateSql({ params: [systemScope('sign-in'), 'sha256', TIMES] })
  find(
    _system: SystemScope,
    tokenHash: string,
    times: SessionTimes,
  ): Promise<SessionRow | undefined> {
    return this.sql.row(
      `WITH found AS (
         SELECT s.key AS "sessionKey", s.csrf_token AS "csrfToken", s.auth_method AS "authMethod",
                s.locale, s.token_hash = $1 AS "isCurrentToken",
                s.rotated_at < now() - make_interval(secs => $3) AS "needsRotation",
                s.last_seen_at < now() - make_interval(secs => $4) AS "needsTouch",
                s.oidc_provider AS "oidcProvider", s.refresh_token AS "refreshToken",
                s.access_expires_at <= now() AS "accessExpired",
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
          WHERE key = (SELECT "sessionKey" FROM found WHERE "needsTouch")
       )
       SELECT * FROM found`,
      [tokenHash, times.idleSeconds, times.rotateSeconds, times.touchSeconds],
    );
  }

  /**
   * Replaces a session's token, keeping the old one valid for `graceSeconds`; false when
   * the token is not the current one any more (a concurrent rotation won).
   */
  @GenerateSql({ params: [1, 'old sha256', 'new sha256', 60] })
  async rotate(
    sessionKey: number,
    oldTokenHash: string,
    newTokenHash: string,
    graceSeconds: number,
  ): Promise<boolean> {
    const { count } = await this.sql.changed(
      `UPDATE session
          SET previous_token_hash = token_hash,
              previous_valid_until = now() + make_interval(secs => $4),
              token_hash = $3, rotated_at = now()
        WHERE key = $1 AND token_hash = $2`,
      [sessionKey, oldTokenHash, newTokenHash, graceSeconds],
    );
    return count === 1;
  }

  /** The provider's renewed tokens; the session lives on. */
  @GenerateSql({ params: [1, new Date(0), 'sealed'] })
  async updateTokens(
    sessionKey: number,
    accessExpiresAt: Date,
    refreshToken: string | null,
  ): Promise<void> {
    await this.sql.run(
      `UPDATE session SET access_expires_at = $2, refresh_token = coalesce($3, refresh_token)
        WHERE key = $1`,
      [sessionKey, accessExpiresAt, refreshToken],
    );
  }

  @GenerateSql({ params: [1] })
  async delete(sessionKey: number): Promise<void> {
    await this.sql.run(`DELETE FROM session WHERE key = $1`, [sessionKey]);
  }

  /** Ends the session of a token, current or previous; the user it was, if any. */
  @GenerateSql({ params: [systemScope('sign-in'), 'sha256', IN_TRANSACTION] })
  deleteByToken(
    _system: SystemScope,
    tokenHash: string,
    tx?: Transaction,
  ): Promise<SessionUser | undefined> {
    return this.sql.row(
      `WITH gone AS (
         DELETE FROM session WHERE token_hash = $1 OR previous_token_hash = $1 RETURNING id_user
       )
       SELECT u.key, u.user_name AS "userName", u.id_organization AS "idOrganization",
              u.id_business_unit AS "idBusinessUnit"
         FROM gone JOIN "user" u ON u.key = gone.id_user LIMIT 1`,
      [tokenHash],
      tx,
    );
  }

  /**
   * Ends a user's sessions but one (`keep`), in `tx` when given: a user's update ends them
   * in its own transaction, whoever may read session rows (nobody may, through the API).
   */
  @GenerateSql({ params: [1, 2, IN_TRANSACTION] })
  async deleteOthers(userKey: number, keep: number | null, tx?: Transaction): Promise<void> {
    await this.sql.run(
      `DELETE FROM session WHERE id_user = $1 AND key IS DISTINCT FROM $2`,
      [userKey, keep],
      tx,
    );
  }

  /** Sessions past their absolute expiry or idle longer than `idleSeconds`. */
  @GenerateSql({ params: [1800] })
  async deleteExpired(idleSeconds: number): Promise<void> {
    await this.sql.run(
      `DELETE FROM session
        WHERE expires_at < now() OR last_seen_at < now() - make_interval(secs => $1)`,
      [idleSeconds],
    );
  }
}

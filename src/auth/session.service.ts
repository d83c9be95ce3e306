import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { systemScope } from '../access/access.tenant';
import { Identity } from '../common/identity';
import { newSecret, sha256 } from '../common/secrets';
import { Environment } from '../config/environment';
import { Transaction } from '../database/transaction';
import { identityOf } from './identity.mapper';
import { SessionRepository, SessionTimes, SessionUser } from './session.repository';

/** A session is found by its token before any organization is known. */
const SIGN_IN = systemScope('sign-in');

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

/**
 * Cookie sessions, kept in the database so several server instances share them.
 * Tokens are stored as SHA-256 hashes; the idle expiry slides, the absolute one does not.
 */
@Injectable()
export class SessionService {
  private readonly times: SessionTimes;
  private readonly absoluteSeconds: number;
  private lastSweep = 0;

  constructor(
    private readonly sessions: SessionRepository,
    config: ConfigService<Environment, true>,
  ) {
    this.times = {
      idleSeconds: config.get('SESSION_IDLE_MINUTES', { infer: true }) * 60,
      rotateSeconds: config.get('SESSION_ROTATE_MINUTES', { infer: true }) * 60,
      touchSeconds: TOUCH_INTERVAL_SECONDS,
    };
    this.absoluteSeconds = config.get('SESSION_ABSOLUTE_HOURS', { infer: true }) * 3600;
  }

  async create(
    userKey: number,
    authMethod: Identity['authMethod'],
    locale: string,
    tokens?: SessionTokens,
  ): Promise<NewSession> {
    const token = newSecret();
    const csrfToken = newSecret();
    const key = await this.sessions.insert({
      tokenHash: sha256(token),
      csrfToken,
      userKey,
      authMethod,
      locale,
      absoluteSeconds: this.absoluteSeconds,
      oidcProvider: tokens?.provider ?? null,
      accessExpiresAt: tokens?.accessExpiresAt ?? null,
      refreshToken: tokens?.refreshToken ?? null,
    });
    await this.deleteExpired();
    return { key, token, csrfToken, locale };
  }

  /**
   * Finds the live session of a token and its user in one indexed round trip (the
   * sliding-expiry write rides along in the same statement when it is due).
   */
  async resolve(token: string): Promise<ResolvedSession | undefined> {
    const row = await this.sessions.find(SIGN_IN, sha256(token), this.times);
    if (!row) return undefined;
    const identity = identityOf(row, row.authMethod, row.locale, {
      key: row.sessionKey,
      csrfToken: row.csrfToken,
    });
    const rotatedToken =
      row.isCurrentToken && row.needsRotation
        ? await this.rotate(row.sessionKey, token)
        : undefined;
    const expiredTokens =
      row.accessExpired && row.oidcProvider && row.refreshToken
        ? { provider: row.oidcProvider, refreshToken: row.refreshToken }
        : undefined;
    return { identity, rotatedToken, expiredTokens };
  }

  /** The provider's renewed tokens; the session lives on. */
  updateTokens(sessionKey: number, accessExpiresAt: Date, refreshToken?: string): Promise<void> {
    return this.sessions.updateTokens(sessionKey, accessExpiresAt, refreshToken ?? null);
  }

  end(sessionKey: number): Promise<void> {
    return this.sessions.delete(sessionKey);
  }

  /** Ends the session a token belongs to; unknown tokens are ignored. */
  /** Ends the session of a token; the user it was, if any. In `tx` when given. */
  endByToken(token: string, tx?: Transaction): Promise<SessionUser | undefined> {
    return this.sessions.deleteByToken(SIGN_IN, sha256(token), tx);
  }

  /** Ends a user's sessions but one; in `tx` when given (a user's update). */
  endOthers(userKey: number, keepSessionKey?: number, tx?: Transaction): Promise<void> {
    return this.sessions.deleteOthers(userKey, keepSessionKey ?? null, tx);
  }

  /** Replaces an old token; a concurrent rotation of the same token wins once. */
  private async rotate(sessionKey: number, oldToken: string): Promise<string | undefined> {
    const token = newSecret();
    const rotated = await this.sessions.rotate(
      sessionKey,
      sha256(oldToken),
      sha256(token),
      ROTATION_GRACE_SECONDS,
    );
    return rotated ? token : undefined;
  }

  private async deleteExpired(): Promise<void> {
    if (Date.now() - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = Date.now();
    await this.sessions.deleteExpired(this.times.idleSeconds);
  }
}

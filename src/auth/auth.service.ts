import { BadRequestException, Injectable, UnauthorizedException } from '@nestjs/common';
import { tenantOf } from '../access/access.tenant';
import type { HttpRequest } from '../http/http.types';
import { Identity } from '../common/identity';
import { ChangePasswordDto } from './dto/change-password.dto';
import { LoginDto } from './dto/login.dto';
import { ServerInfoDto } from './dto/server-info.dto';
import { identityOf } from './identity.mapper';
import { LoginThrottleService } from './login-throttle.service';
import { OidcSignIn } from './oidc/oidc-sign-in.service';
import { ServerInfoService } from './server-info.service';
import { NewSession, SessionService } from './session.service';
import { MIN_PASSWORD_LENGTH, UserService } from '../directory/user.service';
import { actorOf, ChangeLog } from '../changes/change-log.service';
import { Transactions } from '../database/transactions.service';
import { actorOfUser, userEvent, userOf } from './security-events';

export const DEFAULT_LOCALE = 'RO';
const INVALID_CREDENTIALS = 'Invalid user or password';

export interface LoginResult {
  session: NewSession;
  info: ServerInfoDto;
}

/** The session API of spec 4.1: password login, logout, password change. */
@Injectable()
export class AuthService {
  constructor(
    private readonly users: UserService,
    private readonly sessions: SessionService,
    private readonly throttle: LoginThrottleService,
    private readonly serverInfo: ServerInfoService,
    private readonly oidc: OidcSignIn,
    private readonly changeLog: ChangeLog,
    private readonly transactions: Transactions,
  ) {}

  async login(credentials: LoginDto, request: HttpRequest): Promise<LoginResult> {
    const address = request.ip ?? '';
    await this.throttle.consumeAttempt(credentials.user, address);
    const user = await this.users.verifyCredentials(credentials.user, credentials.password);
    const detail = { address, strategy: 'password' };
    if (!user) {
      // Whether the name is a user's or not, the same work: one look-up, one entry.
      const known = await this.users.findByName(credentials.user);
      await this.changeLog.recordNow(
        actorOfUser(undefined, 'session', request.id, credentials.user),
        userEvent('sign_in_failed', known, detail),
      );
      throw new UnauthorizedException(INVALID_CREDENTIALS);
    }
    await this.throttle.recordSuccess(credentials.user, address);
    const locale = credentials.locale ?? DEFAULT_LOCALE;
    const session = await this.sessions.create(user.key, 'session', locale);
    await this.changeLog.recordNow(
      actorOfUser(user, 'session', request.id),
      userEvent('signed_in', user, detail),
    );
    return {
      session,
      info: this.serverInfo.describe(request, identityOf(user, 'session', locale)),
    };
  }

  /**
   * The token form of spec 4.1: an access token of a configured provider (and maybe its
   * refresh token, with which the server renews it; without one the session ends when
   * the access token does). The body is ignored.
   */
  async tokenLogin(
    accessToken: string,
    refreshToken: string | undefined,
    request: HttpRequest,
  ): Promise<LoginResult> {
    const address = request.ip ?? '';
    const signedIn = await this.oidc.withTokens(accessToken, refreshToken).catch(async (error) => {
      if (error instanceof UnauthorizedException) {
        await this.changeLog.recordNow(
          actorOfUser(undefined, 'oidc', request.id),
          userEvent('sign_in_failed', undefined, { address, strategy: 'oidc' }),
        );
      }
      throw error;
    });
    const { user, tokens } = signedIn;
    const session = await this.sessions.create(user.key, 'oidc', user.locale, tokens);
    const via = `oidc ${signedIn.provider}`;
    await this.changeLog.recordNow(
      actorOfUser(user, via, request.id),
      userEvent('signed_in', user, { address, strategy: via }),
    );
    return {
      session,
      info: this.serverInfo.describe(request, identityOf(user, 'oidc', user.locale)),
    };
  }

  async logout(token: string | undefined, request: HttpRequest): Promise<void> {
    if (!token) return;
    await this.transactions.run(async (tx) => {
      const user = await this.sessions.endByToken(token, tx);
      if (!user) return;
      this.changeLog.record(tx, actorOfUser(user, 'session', request.id), [
        userEvent('signed_out', user, { address: request.ip ?? '' }),
      ]);
    });
  }

  /**
   * Changes the caller's password and ends their other sessions. Wrong current passwords
   * count as failed logins: a stolen session must not become a password oracle.
   */
  async changePassword(
    identity: Identity,
    form: ChangePasswordDto,
    request: HttpRequest,
  ): Promise<void> {
    const next = form['set-password'];
    if (next !== form['confirm-password']) {
      throw new BadRequestException('confirm-password does not match set-password');
    }
    if (next.length < MIN_PASSWORD_LENGTH) {
      throw new BadRequestException(
        `set-password must be at least ${MIN_PASSWORD_LENGTH} characters`,
      );
    }
    const address = request.ip ?? '';
    await this.throttle.consumeAttempt(identity.userName, address);
    await this.transactions.run(async (tx) => {
      await this.users.changePassword(
        tenantOf(identity),
        identity.userKey,
        form['current-password'],
        next,
        tx,
      );
      await this.sessions.endOthers(identity.userKey, identity.session?.key, tx);
      this.changeLog.record(tx, actorOf(identity), [
        userEvent('password_changed', userOf(identity), { address }),
      ]);
    });
    await this.throttle.recordSuccess(identity.userName, address);
  }
}

import { BadRequestException, Injectable, UnauthorizedException } from '@nestjs/common';
import { systemScope, Tenant } from '../access/access.tenant';
import { Actor, ChangeLog, SYSTEM_ACTOR } from '../changes/change-log.service';
import { Transaction } from '../database/transaction';
import { Transactions } from '../database/transactions.service';
import { Owner } from '../model/owner';
import { hashPassword, UNKNOWN_USER_HASH, verifyPassword } from './password-hasher';
import { RoleRepository } from './role.repository';
import { UserRepository, UserRow } from './user.repository';

export const MIN_PASSWORD_LENGTH = 8;

/** Users are made by the CLI, the first boot and the demo seed, for the organization named. */
const SETUP = systemScope('setup');
/** A sign-in names a user, in no organization; an OpenID provider's lands in a configured one. */
const SIGN_IN = systemScope('sign-in');
const MAX_USER_NAME = 100;

export interface NewUser {
  userName: string;
  fullName?: string;
  password: string;
  isAdmin?: boolean;
  organizationKey: number;
  businessUnitKey: number;
  /** The user recorded as creator; a first user creates itself. */
  createdBy?: number;
  /** Names of roles of the organization the user holds. */
  roles?: string[];
  /** Who creates it, for the change log: the CLI, first boot, a test's setup (`system`). */
  actor?: Actor;
}

/** A user an OpenID provider signs in, made on its first sign-in. */
export interface NewExternalUser {
  /** What to name the user; suffixed with `suffix` and a number when the name is taken. */
  preferredName: string;
  suffix: string;
  /** By default the name it gets. */
  fullName?: string;
  organizationKey: number;
  businessUnitKey: number;
  issuer: string;
  subject: string;
  /** The sign-in it is made for: `oidc <provider>`, the request id. */
  actor: Pick<Actor, 'via' | 'requestId'>;
}

/** Users: their passwords, creation, and the roles they hold. */
@Injectable()
export class UserService {
  constructor(
    private readonly users: UserRepository,
    private readonly roles: RoleRepository,
    private readonly transactions: Transactions,
    private readonly changeLog: ChangeLog,
  ) {}

  /**
   * The active user with that name and password, or undefined. An unknown user is
   * checked against a dummy hash so it takes as long as a wrong password.
   */
  async verifyCredentials(userName: string, password: string): Promise<UserRow | undefined> {
    const user = await this.users.withPasswordHash(SIGN_IN, userName);
    const matches = await verifyPassword(password, user?.passwordHash ?? UNKNOWN_USER_HASH);
    if (!matches || !user?.active) return undefined;
    const { passwordHash: _hash, ...found } = user;
    return found;
  }

  /** Replaces a user's password, knowing the current one; in `tx` when given. */
  async changePassword(
    tenant: Tenant,
    userKey: number,
    current: string,
    next: string,
    tx?: Transaction,
  ): Promise<void> {
    const hash = await this.users.passwordHash(tenant, userKey);
    if (!hash || !(await verifyPassword(current, hash))) {
      throw new UnauthorizedException('The current password is wrong');
    }
    await this.users.setPasswordHash(tenant, userKey, await hashPassword(next), tx);
  }

  /** The user of that name, in any organization (names are unique across them). */
  findByName(userName: string, tx?: Transaction): Promise<UserRow | undefined> {
    return this.users.findByName(SIGN_IN, userName, tx);
  }

  findByOidcSubject(issuer: string, subject: string): Promise<UserRow | undefined> {
    return this.users.findByOidcSubject(SIGN_IN, issuer, subject);
  }

  /** Creates a user with its roles, inside `tx` when given. */
  async create(input: NewUser, tx?: Transaction): Promise<UserRow> {
    if (input.password.length < MIN_PASSWORD_LENGTH) {
      throw new BadRequestException(
        `The password must be at least ${MIN_PASSWORD_LENGTH} characters`,
      );
    }
    const passwordHash = await hashPassword(input.password);
    return this.transactions.run(async (tx) => {
      const user = await this.users.insert(
        SETUP.tenant(input.organizationKey),
        {
          userName: input.userName,
          fullName: input.fullName ?? input.userName,
          passwordHash,
          isAdmin: input.isAdmin ?? false,
          businessUnitKey: input.businessUnitKey,
          createdBy: input.createdBy,
        },
        tx,
      );
      this.logCreated(tx, user!, input.actor ?? SYSTEM_ACTOR);
      await this.grantRoles(user!, input.roles ?? [], tx, input.actor);
      return user!;
    }, tx);
  }

  /**
   * Creates the user of an OpenID identity under a free name: undefined when a racing
   * sign-in of the same subject created it first.
   */
  async createExternal(input: NewExternalUser, tx: Transaction): Promise<UserRow | undefined> {
    const userName = await this.freeName(input.preferredName, input.suffix, tx);
    const user = await this.users.insert(
      SIGN_IN.tenant(input.organizationKey),
      {
        userName,
        fullName: (input.fullName ?? userName).slice(0, 200),
        passwordHash: null,
        isAdmin: false,
        businessUnitKey: input.businessUnitKey,
        oidc: { issuer: input.issuer, subject: input.subject },
      },
      tx,
    );
    if (user) this.logCreated(tx, user, { ...input.actor, userKey: user.key, userName });
    return user;
  }

  /** Gives a user roles of its organization by name (400 naming one that does not exist). */
  async grantRoles(
    user: UserRow,
    roleNames: string[],
    tx?: Transaction,
    actor: Actor = SYSTEM_ACTOR,
  ): Promise<void> {
    if (roleNames.length === 0) return;
    await this.transactions.run(async (tx) => {
      const tenant = SETUP.tenant(user.idOrganization);
      await this.roles.grantRoles(tenant, user.key, ownerOfUserRow(user), roleNames, tx);
      this.changeLog.record(tx, actor, [
        {
          operation: 'roles_changed',
          entity: 'user',
          recordKey: user.key,
          owner: ownerOfUserRow(user),
          detail: { granted: roleNames },
        },
      ]);
    }, tx);
  }

  /**
   * The entry of a user made outside the entity API (the CLI, first boot, a sign-in); an
   * administrator made so is a right granted too, as through the entity API.
   */
  private logCreated(tx: Transaction, user: UserRow, actor: Actor): void {
    const owner = ownerOfUserRow(user);
    this.changeLog.record(tx, actor, [
      {
        operation: 'created',
        entity: 'user',
        recordKey: user.key,
        owner,
        changes: {
          user_name: { new: user.userName },
          full_name: { new: user.fullName },
          is_admin: { new: user.isAdmin },
        },
      },
      ...(user.isAdmin
        ? [
            {
              operation: 'roles_changed' as const,
              entity: 'user',
              recordKey: user.key,
              owner,
              detail: { created: 1 },
            },
          ]
        : []),
    ]);
  }

  /** `preferred`, or it suffixed `-<suffix><n>` with the first n that makes it free. */
  private async freeName(preferred: string, suffix: string, tx: Transaction): Promise<string> {
    const base = preferred.slice(0, MAX_USER_NAME - 12);
    for (let n = 0; ; n++) {
      const candidate = n === 0 ? base : `${base}-${suffix.slice(0, 6)}${n}`;
      if (!(await this.users.findByName(SIGN_IN, candidate, tx))) return candidate;
    }
  }
}

/** A user row's owner columns, which the rows written for it (its roles) share. */
function ownerOfUserRow(user: UserRow): Owner {
  return {
    organizationKey: user.idOrganization,
    businessUnitKey: user.idBusinessUnit,
    userKey: user.idUser,
  };
}

import { Injectable } from '@nestjs/common';
import { GenerateSql, IN_TRANSACTION } from '../database/generate-sql';
import { Sql } from '../database/sql.service';
import { Transaction } from '../database/transaction';
import { SystemScope, systemScope, Tenant } from '../access/access.tenant';
import { SAMPLE_TENANT } from '../access/scope.samples';
import { Owner } from '../model/owner';

/** A user as the directory hands it out: never its password hash. */
export interface UserRow {
  key: number;
  userName: string;
  fullName: string;
  isAdmin: boolean;
  locale: string;
  active: boolean;
  idOrganization: number;
  idBusinessUnit: number;
  /** The user recorded as its creator (a first user creates itself). */
  idUser: number;
}

/** The user as the owner of the rows it is given: in its organization and unit. */
export function asOwner(user: UserRow): Owner {
  return {
    organizationKey: user.idOrganization,
    businessUnitKey: user.idBusinessUnit,
    userKey: user.key,
  };
}

/** A user to insert; `createdBy` absent: the user is its own creator. */
export interface NewUserRow {
  userName: string;
  fullName: string;
  passwordHash: string | null;
  isAdmin: boolean;
  businessUnitKey: number;
  createdBy?: number;
  /** The OpenID issuer and subject the user signs in as. */
  oidc?: { issuer: string; subject: string };
}

const USER_COLUMNS = `u.key, u.user_name AS "userName", u.full_name AS "fullName",
  u.is_admin AS "isAdmin", u.locale, u.active, u.id_organization AS "idOrganization",
  u.id_business_unit AS "idBusinessUnit", u.id_user AS "idUser"`;

/** The SQL of `user` rows outside the entity engine: sign-in, the CLI, first boot. */
@Injectable()
export class UserRepository {
  constructor(private readonly sql: Sql) {}

  /** Across organizations: user names are unique in all of them (a sign-in names none). */
  @GenerateSql({ params: [systemScope('sign-in'), 'admin'] })
  findByName(
    _system: SystemScope,
    userName: string,
    tx?: Transaction,
  ): Promise<UserRow | undefined> {
    return this.sql.row(
      `SELECT ${USER_COLUMNS} FROM "user" u WHERE u.user_name = $1`,
      [userName],
      tx,
    );
  }

  @GenerateSql({ params: [SAMPLE_TENANT, 1] })
  findByKey(tenant: Tenant, key: number): Promise<UserRow | undefined> {
    return this.sql.row(
      `SELECT ${USER_COLUMNS} FROM "user" u WHERE u.key = $1 AND u.id_organization = $2`,
      [key, tenant.organizationKey],
    );
  }

  /** The user with that OpenID issuer and subject. */
  @GenerateSql({ params: [systemScope('sign-in'), 'https://issuer.example', 'subject'] })
  findByOidcSubject(
    _system: SystemScope,
    issuer: string,
    subject: string,
  ): Promise<UserRow | undefined> {
    return this.sql.row(
      `SELECT ${USER_COLUMNS} FROM "user" u WHERE u.oidc_issuer = $1 AND u.oidc_subject = $2`,
      [issuer, subject],
    );
  }

  /** The user and its password hash, for checking a password and for nothing else. */
  @GenerateSql({ params: [systemScope('sign-in'), 'admin'] })
  withPasswordHash(
    _system: SystemScope,
    userName: string,
  ): Promise<(UserRow & { passwordHash: string | null }) | undefined> {
    return this.sql.row(
      `SELECT ${USER_COLUMNS}, u.password_hash AS "passwordHash" FROM "user" u WHERE u.user_name = $1`,
      [userName],
    );
  }

  @GenerateSql({ params: [SAMPLE_TENANT, 1] })
  async passwordHash(tenant: Tenant, userKey: number): Promise<string | null | undefined> {
    const row = await this.sql.row<{ passwordHash: string | null }>(
      `SELECT password_hash AS "passwordHash" FROM "user" WHERE key = $1 AND id_organization = $2`,
      [userKey, tenant.organizationKey],
    );
    return row?.passwordHash;
  }

  @GenerateSql({ params: [SAMPLE_TENANT, 1, 'hash', IN_TRANSACTION] })
  async setPasswordHash(
    tenant: Tenant,
    userKey: number,
    passwordHash: string,
    tx?: Transaction,
  ): Promise<void> {
    await this.sql.run(
      `UPDATE "user" SET password_hash = $2, date_updated = now()
        WHERE key = $1 AND id_organization = $3`,
      [userKey, passwordHash, tenant.organizationKey],
      tx,
    );
  }

  /**
   * Inserts a user, its key drawn in the statement (a user without a creator is its own).
   * Undefined when a user of the same OpenID subject is there already: a racing sign-in
   * inserted it first.
   */
  @GenerateSql({
    params: [
      SAMPLE_TENANT,
      {
        userName: 'someone',
        fullName: 'Some One',
        passwordHash: 'hash',
        isAdmin: false,
        businessUnitKey: 1,
        createdBy: 1,
      },
      IN_TRANSACTION,
    ],
  })
  insert(tenant: Tenant, user: NewUserRow, tx: Transaction): Promise<UserRow | undefined> {
    return this.sql.row(
      `WITH drawn AS (SELECT nextval(pg_get_serial_sequence('"user"', 'key')) AS key)
       INSERT INTO "user" AS u (key, user_name, full_name, password_hash, is_admin,
                                id_organization, id_business_unit, id_user, oidc_issuer, oidc_subject)
       SELECT drawn.key, $1, $2, $3, $4, $5, $6, coalesce($7, drawn.key), $8, $9 FROM drawn
       ON CONFLICT (oidc_issuer, oidc_subject) WHERE oidc_subject IS NOT NULL DO NOTHING
       RETURNING ${USER_COLUMNS}`,
      [
        user.userName,
        user.fullName,
        user.passwordHash,
        user.isAdmin,
        tenant.organizationKey,
        user.businessUnitKey,
        user.createdBy ?? null,
        user.oidc?.issuer ?? null,
        user.oidc?.subject ?? null,
      ],
      tx,
    );
  }
}

import { Injectable } from '@nestjs/common';
import { GenerateSql, IN_TRANSACTION } from '../database/generate-sql';
import { Sql } from '../database/sql.service';
import { Transaction } from '../database/transaction';
import { SystemScope, systemScope, Tenant } from '../access/access.tenant';
import { SAMPLE_TENANT } from '../access/scope.samples';
import { Owner } from '../model/owner';

export interface OrganizationRow {
  key: number;
  name: string;
  /** The organization's first unit (its owner column), where its users start. */
  idBusinessUnit: number;
}

export interface BusinessUnitRow {
  key: number;
  name: string;
  idOrganization: number;
}

/**
 * The SQL of organizations and their business units outside the entity engine. Finding
 * and making organizations spans them (a system scope: the CLI, first boot, a sign-in);
 * what concerns one organization is bound to its tenant.
 */
@Injectable()
export class OrganizationRepository {
  constructor(private readonly sql: Sql) {}

  /** Holds organization creation to one transaction at a time until `tx` ends. */
  @GenerateSql({ params: [IN_TRANSACTION] })
  async lockCreation(tx: Transaction): Promise<void> {
    await this.sql.run(`SELECT pg_advisory_xact_lock(hashtext('atrium.organization'))`, [], tx);
  }

  @GenerateSql({ params: [systemScope('setup'), 'Demo'] })
  findByName(
    _system: SystemScope,
    name: string,
    tx?: Transaction,
  ): Promise<OrganizationRow | undefined> {
    return this.sql.row(
      `SELECT key, name, id_business_unit AS "idBusinessUnit" FROM organization WHERE name = $1`,
      [name],
      tx,
    );
  }

  @GenerateSql({ params: [systemScope('setup')] })
  async any(_system: SystemScope): Promise<boolean> {
    return (await this.sql.rows(`SELECT 1 FROM organization LIMIT 1`)).length > 0;
  }

  /** The unit named `name` of an organization. */
  @GenerateSql({ params: [SAMPLE_TENANT, 'Main'] })
  findBusinessUnit(tenant: Tenant, name: string): Promise<BusinessUnitRow | undefined> {
    return this.sql.row(
      `SELECT key, name, id_organization AS "idOrganization" FROM business_unit
        WHERE id_organization = $1 AND name = $2`,
      [tenant.organizationKey, name],
    );
  }

  @GenerateSql({ params: [SAMPLE_TENANT, 1] })
  findBusinessUnitByKey(tenant: Tenant, key: number): Promise<BusinessUnitRow | undefined> {
    return this.sql.row(
      `SELECT key, name, id_organization AS "idOrganization" FROM business_unit
        WHERE key = $1 AND id_organization = $2`,
      [key, tenant.organizationKey],
    );
  }

  /**
   * Keys for a new organization and its first unit, drawn ahead of the rows: those two and
   * the first user own each other (the owner columns are checked at commit).
   */
  @GenerateSql({ params: [IN_TRANSACTION] })
  async drawKeys(tx: Transaction): Promise<{ organizationKey: number; businessUnitKey: number }> {
    const row = await this.sql.row<{ organizationKey: number; businessUnitKey: number }>(
      `SELECT nextval(pg_get_serial_sequence('organization', 'key')) AS "organizationKey",
              nextval(pg_get_serial_sequence('business_unit', 'key')) AS "businessUnitKey"`,
      [],
      tx,
    );
    return row!;
  }

  /** An organization under a drawn key, owned by `owner`. */
  @GenerateSql({
    params: [
      systemScope('setup'),
      'Acme',
      { organizationKey: 2, businessUnitKey: 1, userKey: 1 },
      IN_TRANSACTION,
    ],
  })
  async insertOrganization(
    _system: SystemScope,
    name: string,
    owner: Owner,
    tx: Transaction,
  ): Promise<OrganizationRow> {
    const row = await this.sql.row<OrganizationRow>(
      `INSERT INTO organization (key, name, id_organization, id_business_unit, id_user)
       VALUES ($1, $2, $1, $3, $4) RETURNING key, name, id_business_unit AS "idBusinessUnit"`,
      [owner.organizationKey, name, owner.businessUnitKey, owner.userKey],
      tx,
    );
    return row!;
  }

  /** A business unit under a drawn key, owned by `owner`, at the top of its tree. */
  @GenerateSql({
    params: [
      SAMPLE_TENANT,
      'Sales',
      { organizationKey: 1, businessUnitKey: 2, userKey: 1 },
      IN_TRANSACTION,
    ],
  })
  async insertBusinessUnit(
    tenant: Tenant,
    name: string,
    owner: Owner,
    tx: Transaction,
  ): Promise<BusinessUnitRow> {
    const row = await this.sql.row<BusinessUnitRow>(
      `INSERT INTO business_unit (key, name, id_organization, id_business_unit, id_user)
       VALUES ($2, $1, $3, $2, $4) RETURNING key, name, id_organization AS "idOrganization"`,
      [name, owner.businessUnitKey, tenant.organizationKey, owner.userKey],
      tx,
    );
    return row!;
  }

  /** The organization and unit of those names, where an OpenID provider lands new users. */
  @GenerateSql({ params: [systemScope('sign-in'), 'Demo', 'Main', IN_TRANSACTION] })
  findPlace(
    _system: SystemScope,
    organization: string,
    businessUnit: string,
    tx: Transaction,
  ): Promise<{ organizationKey: number; businessUnitKey: number } | undefined> {
    return this.sql.row(
      `SELECT o.key AS "organizationKey", b.key AS "businessUnitKey" FROM organization o
         JOIN business_unit b ON b.id_organization = o.key AND b.name = $2
        WHERE o.name = $1`,
      [organization, businessUnit],
      tx,
    );
  }

  /**
   * Whether `unitKey` is `parentKey` or above it: placing the unit under that parent would
   * make a cycle. Reads every unit above the parent, whoever may read them (a cycle is a
   * cycle), in `tx`.
   */
  @GenerateSql({ params: [SAMPLE_TENANT, 1, 2, IN_TRANSACTION] })
  async isAtOrAbove(
    tenant: Tenant,
    unitKey: number,
    parentKey: number,
    tx: Transaction,
  ): Promise<boolean> {
    const rows = await this.sql.rows(
      `WITH RECURSIVE above AS (
         SELECT key, id_parent_business_unit FROM business_unit
          WHERE key = $1 AND id_organization = $3
         UNION
         SELECT b.key, b.id_parent_business_unit FROM business_unit b
           JOIN above a ON b.key = a.id_parent_business_unit AND b.id_organization = $3
       ) SELECT 1 FROM above WHERE key = $2`,
      [parentKey, unitKey, tenant.organizationKey],
      tx,
    );
    return rows.length > 0;
  }
}

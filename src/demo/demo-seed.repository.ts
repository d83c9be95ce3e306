import type { Tenant } from '../access/access.tenant';
import { SAMPLE_TENANT } from '../access/scope.samples';
import { Injectable } from '@nestjs/common';
import { GenerateSql, IN_TRANSACTION } from '../database/generate-sql';
import { Sql } from '../database/sql.service';
import { Transaction } from '../database/transaction';
import { Owner } from '../model/owner';

/**
 * What seeding the demo data set does past the entity engine, in its transaction: dates
 * in the past, and records given to other users wholesale.
 */
@Injectable()
export class DemoSeedRepository {
  constructor(private readonly sql: Sql) {}

  /** Invoices created at those times, ISO 8601 (a seeded invoice was made over two years). */
  @GenerateSql({ params: [SAMPLE_TENANT, [1], ['2025-01-31T12:00:00Z'], IN_TRANSACTION] })
  async backdateInvoices(
    tenant: Tenant,
    keys: number[],
    createdAt: string[],
    tx: Transaction,
  ): Promise<void> {
    await this.sql.run(
      `UPDATE invoice i SET date_created = d.created, date_updated = d.created
         FROM unnest($1::int8[], $2::timestamptz[]) AS d(key, created)
        WHERE i.key = d.key AND i.id_organization = $3`,
      [keys, createdAt, tenant.organizationKey],
      tx,
    );
  }

  /** Accounts, with their contacts, invoices and lines, to a user and the user's unit. */
  @GenerateSql({
    params: [
      SAMPLE_TENANT,
      [1],
      { organizationKey: 1, businessUnitKey: 1, userKey: 1 },
      IN_TRANSACTION,
    ],
  })
  async giveAccounts(
    tenant: Tenant,
    accountKeys: number[],
    owner: Owner,
    tx: Transaction,
  ): Promise<void> {
    const set = `SET id_user = $2, id_business_unit = $3`;
    const tenantOf = (alias: string) => `${alias}.id_organization = $4`;
    const values = [accountKeys, owner.userKey, owner.businessUnitKey, tenant.organizationKey];
    await this.sql.run(
      `UPDATE account a ${set} WHERE a.key = ANY($1::int8[]) AND ${tenantOf('a')}`,
      values,
      tx,
    );
    await this.sql.run(
      `UPDATE contact c ${set} WHERE c.id_account = ANY($1::int8[]) AND ${tenantOf('c')}`,
      values,
      tx,
    );
    await this.sql.run(
      `UPDATE invoice i ${set} WHERE i.id_account = ANY($1::int8[]) AND ${tenantOf('i')}`,
      values,
      tx,
    );
    await this.sql.run(
      `UPDATE invoice_line l ${set} FROM invoice i
        WHERE l.id_invoice = i.key AND i.id_account = ANY($1::int8[])
          AND ${tenantOf('l')} AND ${tenantOf('i')}`,
      values,
      tx,
    );
  }
}

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
  @GenerateSql({ params: [[1], ['2025-01-31T12:00:00Z'], IN_TRANSACTION] })
  async backdateInvoices(keys: number[], createdAt: string[], tx: Transaction): Promise<void> {
    await this.sql.run(
      `UPDATE invoice i SET date_created = d.created, date_updated = d.created
         FROM unnest($1::int8[], $2::timestamptz[]) AS d(key, created) WHERE i.key = d.key`,
      [keys, createdAt],
      tx,
    );
  }

  /** Accounts, with their contacts, invoices and lines, to a user and the user's unit. */
  @GenerateSql({
    params: [[1], { organizationKey: 1, businessUnitKey: 1, userKey: 1 }, IN_TRANSACTION],
  })
  async giveAccounts(accountKeys: number[], owner: Owner, tx: Transaction): Promise<void> {
    const set = `SET id_user = $2, id_business_unit = $3`;
    const values = [accountKeys, owner.userKey, owner.businessUnitKey];
    await this.sql.run(`UPDATE account ${set} WHERE key = ANY($1::int8[])`, values, tx);
    await this.sql.run(`UPDATE contact ${set} WHERE id_account = ANY($1::int8[])`, values, tx);
    await this.sql.run(`UPDATE invoice ${set} WHERE id_account = ANY($1::int8[])`, values, tx);
    await this.sql.run(
      `UPDATE invoice_line l ${set} FROM invoice i
        WHERE l.id_invoice = i.key AND i.id_account = ANY($1::int8[])`,
      values,
      tx,
    );
  }
}

import type { Tenant } from '../access/access.tenant';
import { SAMPLE_TENANT } from '../access/scope.samples';
import { Injectable } from '@nestjs/common';
import { GenerateSql, IN_TRANSACTION } from '../database/generate-sql';
import { Sql } from '../database/sql.service';
import { Transaction } from '../database/transaction';

/** Invoice numbers, which are unique in an organization. */
@Injectable()
export class InvoiceNumberRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * The highest number starting with `prefix` in the organization, read past the
   * caller's privileges: whoever may read the invoice holding it, the number is taken.
   */
  @GenerateSql({ params: [SAMPLE_TENANT, 'INV-2026-', IN_TRANSACTION] })
  async highest(tenant: Tenant, prefix: string, tx: Transaction): Promise<string | null> {
    const row = await this.sql.row<{ last: string | null }>(
      `SELECT max(number) AS last FROM invoice WHERE id_organization = $1 AND number LIKE $2`,
      [tenant.organizationKey, `${prefix}%`],
      tx,
    );
    return row!.last;
  }
}

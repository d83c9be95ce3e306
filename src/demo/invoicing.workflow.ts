import { ScopedData } from '../data/scoped-data';
import { EntityQuery } from '../fetch/fetch.tree';
import { InvoiceNumberRepository } from './invoice-number.repository';
import { Workflow, WorkflowMethod } from '../workflow/workflow.decorators';
import { WorkflowError } from '../workflow/workflow.errors';
import { WorkflowContext } from '../workflow/workflow.service';

/**
 * The demo's workflow (DESIGN.md): issue a draft invoice; sum an account's invoices. All
 * through the scoped data API, so the caller's privileges apply: issuing needs write on
 * the invoice, summing counts the invoices the caller may read.
 */
@Workflow('invoicing')
export class InvoicingWorkflow {
  constructor(private readonly numbers: InvoiceNumberRepository) {}

  /**
   * A draft becomes issued today, numbered `INV-<year>-<nnnn>` unless it has a number.
   * Through the entity engine, so the invoice's rules run (and a failing one is a 424).
   */
  @WorkflowMethod({
    arguments: [{ name: 'invoiceKey', type: 'integer' }],
    requires: { invoice: 'write' },
  })
  async issue(
    invoiceKey: number,
    { data, identity }: WorkflowContext,
  ): Promise<{ status: string; number: string }> {
    // One issue at a time per organization: two at once would read the same highest
    // number (or the same draft). The second waits until the first commits.
    await data.lockUntilTransactionEnds(`invoicing.issue:${identity.organizationKey}`);
    const entity = await data.read('invoice', invoiceKey);
    const { status, number } = entity.properties as { status: string; number: string | null };
    if (status !== 'draft') {
      throw new WorkflowError(
        400,
        `invoice ${invoiceKey} is ${status}: only a draft can be issued`,
      );
    }
    const now = new Date();
    const assigned = number ?? (await this.nextNumber(now.getUTCFullYear(), data));
    await data.update('invoice', invoiceKey, {
      properties: { status: 'issued', number: assigned, issue_date: now.toISOString() },
    });
    return { status: 'issued', number: assigned };
  }

  /** How many of the account's invoices were issued or created in [from, to], and their total. */
  @WorkflowMethod({
    arguments: [
      { name: 'accountKey', type: 'integer' },
      { name: 'from', type: 'datetime' },
      { name: 'to', type: 'datetime' },
    ],
    requires: { account: 'read', invoice: 'read' },
  })
  async summary(
    accountKey: number,
    from: Date,
    to: Date,
    { data }: WorkflowContext,
  ): Promise<{ count: number; total: string }> {
    const range = [from.toISOString(), to.toISOString()];
    // One statement: the account (none: 404) and its invoices in range, an OUTER link.
    const query: EntityQuery = {
      entity: 'account',
      properties: [{ property: 'key', alias: 'account', groupBy: true }],
      links: [
        {
          entity: 'invoice',
          linkType: 'outer',
          from: 'id_account',
          to: 'key',
          properties: [
            { property: 'key', aggregate: 'countcolumn', alias: 'count' },
            { property: 'total', aggregate: 'sum', alias: 'total' },
          ],
          filter: [
            {
              type: 'Or',
              conditions: [
                { property: 'issue_date', operator: 'between', value: range },
                { property: 'date_created', operator: 'between', value: range },
              ],
            },
          ],
        },
      ],
      filter: [
        { type: 'And', conditions: [{ property: 'key', operator: 'eq', value: accountKey }] },
      ],
    };
    const { rows } = await data.fetch(query);
    if (rows.length === 0) throw new WorkflowError(404, `account ${accountKey} not found`);
    const { count, total } = rows[0] as { count: number; total: string | null };
    return { count, total: total ?? '0.00' };
  }

  /**
   * The year's next number after the highest one in this organization, whoever may read
   * the invoice holding it: numbers are unique in the organization.
   */
  private async nextNumber(year: number, data: ScopedData): Promise<string> {
    const prefix = `INV-${year}-`;
    const highest = await this.numbers.highest(data.tenant, prefix, data.transaction);
    const last = highest ?? prefix + '0000';
    const next = Number(last.slice(prefix.length)) + 1;
    return `${prefix}${String(next).padStart(4, '0')}`;
  }
}

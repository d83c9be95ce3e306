import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { FirstBootHandler, OnFirstBoot } from '../auth/bootstrap.service';
import { identityOf } from '../auth/identity.mapper';
import { CreatedOrganization } from '../auth/organization.service';
import { RequestContext } from '../common/request-context';
import { Environment } from '../config/environment';
import { EntityService } from '../entity/entity.service';
import { DemoData, generateDemoData } from './demo-data';

/**
 * Seeds the demo data set (DESIGN.md) into the Demo organization on first boot, through
 * the entity engine so the hooks compute amounts and totals, in one transaction.
 */
@Injectable()
@OnFirstBoot()
export class DemoSeedService implements FirstBootHandler {
  private readonly logger = new Logger(DemoSeedService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly entities: EntityService,
    private readonly context: RequestContext,
    private readonly config: ConfigService<Environment, true>,
  ) {}

  async onFirstBoot({ admin }: CreatedOrganization): Promise<void> {
    if (this.config.get('DEMO_DATA', { infer: true }) === 'false') return;
    const identity = identityOf(admin, 'session', admin.locale);
    const data = generateDemoData(new Date());
    await this.context.runAs(identity, () =>
      this.dataSource.transaction((manager) => this.seed(manager, data)),
    );
    this.logger.log(
      `Seeded demo data: ${data.accounts.length} accounts, ${data.contacts.length} contacts, ` +
        `${data.products.length} products, ${data.invoices.length} invoices`,
    );
  }

  private async seed(manager: EntityManager, data: DemoData): Promise<void> {
    const create = async (name: string, properties: Record<string, unknown>, children = {}) =>
      (await this.entities.create(name, { properties, children }, manager)).key;
    const accountKeys: number[] = [];
    for (const account of data.accounts) accountKeys.push(await create('account', account));
    for (const { account, ...contact } of data.contacts) {
      await create('contact', { ...contact, id_account: accountKeys[account] });
    }
    const productKeys: number[] = [];
    for (const product of data.products) productKeys.push(await create('product', product));
    const invoiceKeys: number[] = [];
    for (const invoice of data.invoices) {
      const key = await create(
        'invoice',
        { ...invoice.properties, id_account: accountKeys[invoice.account] },
        {
          invoice_invoice_line: invoice.lines.map(({ product, ...line }) => ({
            properties: { ...line, id_product: productKeys[product] },
          })),
        },
      );
      invoiceKeys.push(key);
    }
    // History: a seeded invoice was created over the last two years, not at first boot.
    await manager.query(
      `UPDATE invoice i SET date_created = d.created, date_updated = d.created
         FROM unnest($1::int8[], $2::timestamptz[]) AS d(key, created) WHERE i.key = d.key`,
      [invoiceKeys, data.invoices.map((invoice) => invoice.createdAt)],
    );
  }
}

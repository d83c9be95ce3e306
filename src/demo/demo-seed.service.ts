import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { randomBytes } from 'node:crypto';
import { identityOf } from '../auth/identity.mapper';
import { Environment } from '../config/environment';
import { DataService } from '../data/data.service';
import { ScopedData } from '../data/scoped-data';
import { FirstBootHandler, OnFirstBoot } from '../directory/first-boot.service';
import { CreatedOrganization } from '../directory/organization.service';
import { asOwner, UserRow } from '../directory/user.repository';
import { UserService } from '../directory/user.service';
import { DEMO_ROLES, DEMO_UNITS, DEMO_USERS } from './demo-access';
import { DemoData, generateDemoData } from './demo-data';
import { DemoSeedRepository } from './demo-seed.repository';

/**
 * Seeds the demo data set (DESIGN.md) into the Demo organization on first boot, through
 * the entity engine so the hooks compute amounts and totals, in one transaction; then
 * the demo's units, roles and users (demo-access.ts), with some accounts theirs.
 */
@Injectable()
@OnFirstBoot()
export class DemoSeedService implements FirstBootHandler {
  private readonly logger = new Logger(DemoSeedService.name);

  constructor(
    private readonly data: DataService,
    private readonly seedRows: DemoSeedRepository,
    private readonly config: ConfigService<Environment, true>,
    private readonly users: UserService,
  ) {}

  async onFirstBoot({ admin }: CreatedOrganization): Promise<void> {
    if (this.config.get('DEMO_DATA', { infer: true }) === 'false') return;
    // The administrator owns what first boot writes; the change log says `system` wrote it.
    const identity = { ...identityOf(admin, 'session', admin.locale), via: 'system' };
    const data = generateDemoData(new Date());
    await this.data.transaction(identity, async (scoped) => {
      const accountKeys = await this.seed(scoped, data);
      await this.seedAccess(scoped, admin, accountKeys);
    });
    this.logger.log(
      `Seeded demo data: ${data.accounts.length} accounts, ${data.contacts.length} contacts, ` +
        `${data.products.length} products, ${data.invoices.length} invoices`,
    );
  }

  private async seed(scoped: ScopedData, data: DemoData): Promise<number[]> {
    const create = async (name: string, properties: Record<string, unknown>, children = {}) =>
      (await scoped.create(name, { properties, children })).key;
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
    await this.seedRows.backdateInvoices(
      scoped.tenant,
      invoiceKeys,
      data.invoices.map((invoice) => invoice.createdAt),
      scoped.transaction,
    );
    return accountKeys;
  }

  /**
   * Units Sales and Support under Main, the demo roles, their users, and accounts given to
   * them: of every five accounts the administrator keeps two, the others go to the two
   * sales reps and to support, with their contacts, invoices and lines.
   */
  private async seedAccess(scoped: ScopedData, admin: UserRow, accountKeys: number[]) {
    const create = async (name: string, body: object) => (await scoped.create(name, body)).key;
    const units: Record<string, number> = { Main: admin.idBusinessUnit };
    for (const name of DEMO_UNITS) {
      units[name] = await create('business_unit', {
        properties: { name, id_parent_business_unit: admin.idBusinessUnit },
      });
    }
    for (const role of DEMO_ROLES) {
      await create('role', {
        properties: { name: role.name, description: role.description },
        children: {
          role_role_privilege: Object.entries(role.privileges).map(([entity_name, depths]) => ({
            properties: { entity_name, ...depths },
          })),
          role_role_field_permission: Object.entries(role.fields ?? {}).map(([field, update]) => {
            const [entity_name, property] = field.split('.');
            return { properties: { entity_name, property, read: true, update } };
          }),
        },
      });
    }
    const password =
      this.config.get('DEMO_USER_PASSWORD', { infer: true }) ??
      randomBytes(24).toString('base64url');
    const owners: UserRow[] = [];
    for (const user of DEMO_USERS) {
      const created = await this.users.create(
        {
          userName: user.userName,
          fullName: user.fullName,
          password,
          organizationKey: admin.idOrganization,
          businessUnitKey: units[user.unit],
          createdBy: admin.key,
          roles: [user.role],
        },
        scoped.transaction,
      );
      if (user.unit !== 'Main') owners.push(created);
    }
    for (const [i, owner] of owners.entries()) {
      const given = accountKeys.filter((_, index) => index % 5 === i + 2);
      await this.seedRows.giveAccounts(scoped.tenant, given, asOwner(owner), scoped.transaction);
    }
  }
}

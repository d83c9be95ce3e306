import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { FirstBootHandler, OnFirstBoot } from '../auth/bootstrap.service';
import { identityOf } from '../auth/identity.mapper';
import { User } from '../auth/entities';
import { CreatedOrganization } from '../auth/organization.service';
import { UserService } from '../auth/user.service';
import { Environment } from '../config/environment';
import { ScopedData } from '../data/scoped-data';
import { EntityService } from '../entity/entity.service';
import { DEMO_ROLES, DEMO_UNITS, DEMO_USERS } from './demo-access';
import { DemoData, generateDemoData } from './demo-data';

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
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly entities: EntityService,
    private readonly config: ConfigService<Environment, true>,
    private readonly users: UserService,
  ) {}

  async onFirstBoot({ admin }: CreatedOrganization): Promise<void> {
    if (this.config.get('DEMO_DATA', { infer: true }) === 'false') return;
    const identity = identityOf(admin, 'session', admin.locale);
    const data = generateDemoData(new Date());
    await this.dataSource.transaction(async (manager) => {
      const scoped = this.entities.scopedData(identity, { manager });
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
    await scoped.unscopedManager.query(
      `UPDATE invoice i SET date_created = d.created, date_updated = d.created
         FROM unnest($1::int8[], $2::timestamptz[]) AS d(key, created) WHERE i.key = d.key`,
      [invoiceKeys, data.invoices.map((invoice) => invoice.createdAt)],
    );
    return accountKeys;
  }

  /**
   * Units Sales and Support under Main, the demo roles, their users, and accounts given to
   * them: of every five accounts the administrator keeps two, the others go to the two
   * sales reps and to support, with their contacts, invoices and lines.
   */
  private async seedAccess(scoped: ScopedData, admin: User, accountKeys: number[]) {
    const create = async (name: string, body: object) => (await scoped.create(name, body)).key;
    const manager = scoped.unscopedManager;
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
    const owners: User[] = [];
    for (const user of DEMO_USERS) {
      const created = await this.users.create(manager, {
        userName: user.userName,
        fullName: user.fullName,
        password,
        organizationKey: admin.idOrganization,
        businessUnitKey: units[user.unit],
        createdBy: admin.key,
        roles: [user.role],
      });
      if (user.unit !== 'Main') owners.push(created);
    }
    for (const [i, owner] of owners.entries()) {
      const given = accountKeys.filter((_, index) => index % 5 === i + 2);
      await this.giveAccounts(manager, given, owner);
    }
  }

  /** Accounts, and what hangs from them, to a user and the user's unit. */
  private async giveAccounts(manager: EntityManager, accountKeys: number[], owner: User) {
    const set = `SET id_user = $2, id_business_unit = $3`;
    const values = [accountKeys, owner.key, owner.idBusinessUnit];
    await manager.query(`UPDATE account ${set} WHERE key = ANY($1::int8[])`, values);
    await manager.query(`UPDATE contact ${set} WHERE id_account = ANY($1::int8[])`, values);
    await manager.query(`UPDATE invoice ${set} WHERE id_account = ANY($1::int8[])`, values);
    await manager.query(
      `UPDATE invoice_line l ${set} FROM invoice i
        WHERE l.id_invoice = i.key AND i.id_account = ANY($1::int8[])`,
      values,
    );
  }
}

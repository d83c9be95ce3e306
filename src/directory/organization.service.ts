import { ConflictException, Injectable } from '@nestjs/common';
import { systemScope } from '../access/access.tenant';
import { Transaction } from '../database/transaction';
import { Transactions } from '../database/transactions.service';
import { governingType } from '../model/entity-type';
import { EntityRegistry } from '../model/entity.registry';
import { Actor, ChangeEntry, ChangeLog, SYSTEM_ACTOR } from '../changes/change-log.service';
import {
  BusinessUnitRow,
  OrganizationRepository,
  OrganizationRow,
} from './organization.repository';
import { MEMBER_ROLE, RoleRepository } from './role.repository';
import { asOwner, UserRow } from './user.repository';
import { UserService } from './user.service';

export const DEFAULT_BUSINESS_UNIT = 'Main';

/** Organizations are made and found by the CLI and the first boot, across organizations. */
const SETUP = systemScope('setup');
/** An OpenID provider's new users land in an organization named by the configuration. */
const SIGN_IN = systemScope('sign-in');

export interface NewOrganization {
  name: string;
  adminUserName: string;
  adminPassword: string;
  /** Who creates it, for the change log (the CLI; first boot is `system`). */
  actor?: Actor;
}

export interface CreatedOrganization {
  organization: OrganizationRow;
  businessUnit: BusinessUnitRow;
  admin: UserRow;
}

/** Organizations: made with their first unit, administrator and role, in one transaction. */
@Injectable()
export class OrganizationService {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly roles: RoleRepository,
    private readonly users: UserService,
    private readonly registry: EntityRegistry,
    private readonly transactions: Transactions,
    private readonly changeLog: ChangeLog,
  ) {}

  /**
   * An organization, its business unit `Main`, its admin user and role `member`, in one
   * transaction.
   * The three rows own each other (system columns), so their keys are drawn first and
   * the foreign keys are checked at commit.
   */
  createOrganization(input: NewOrganization): Promise<CreatedOrganization> {
    return this.transactions.run((tx) => this.insertOrganization(input, tx));
  }

  /** Creates the organization unless one with that name exists (undefined then). */
  ensureOrganization(input: NewOrganization): Promise<CreatedOrganization | undefined> {
    return this.transactions.run(async (tx) => {
      // Two instances starting on an empty database must not both create it.
      await this.organizations.lockCreation(tx);
      const existing = await this.organizations.findByName(SETUP, input.name, tx);
      return existing ? undefined : this.insertOrganization(input, tx);
    });
  }

  hasAnyOrganization(): Promise<boolean> {
    return this.organizations.any(SETUP);
  }

  findByName(name: string): Promise<OrganizationRow | undefined> {
    return this.organizations.findByName(SETUP, name);
  }

  /** The organization's unit of that name; without one, the unit its users start in. */
  findBusinessUnit(
    organization: OrganizationRow,
    name: string | undefined,
  ): Promise<BusinessUnitRow | undefined> {
    const tenant = SETUP.tenant(organization.key);
    return name === undefined
      ? this.organizations.findBusinessUnitByKey(tenant, organization.idBusinessUnit)
      : this.organizations.findBusinessUnit(tenant, name);
  }

  /** The keys of the organization and unit of those names, in `tx`. */
  findPlace(
    organization: string,
    businessUnit: string,
    tx: Transaction,
  ): Promise<{ organizationKey: number; businessUnitKey: number } | undefined> {
    return this.organizations.findPlace(SIGN_IN, organization, businessUnit, tx);
  }

  private async insertOrganization(
    input: NewOrganization,
    tx: Transaction,
  ): Promise<CreatedOrganization> {
    if (await this.organizations.findByName(SETUP, input.name, tx)) {
      throw new ConflictException(`Organization ${input.name} already exists`);
    }
    if (await this.users.findByName(input.adminUserName, tx)) {
      throw new ConflictException(`User ${input.adminUserName} already exists`);
    }
    const { organizationKey, businessUnitKey } = await this.organizations.drawKeys(tx);
    const admin = await this.users.create(
      {
        userName: input.adminUserName,
        password: input.adminPassword,
        isAdmin: true,
        organizationKey,
        businessUnitKey,
        actor: input.actor,
      },
      tx,
    );
    const owner = asOwner(admin);
    const organization = await this.organizations.insertOrganization(SETUP, input.name, owner, tx);
    const tenant = SETUP.tenant(organizationKey);
    const businessUnit = await this.organizations.insertBusinessUnit(
      tenant,
      DEFAULT_BUSINESS_UNIT,
      owner,
      tx,
    );
    const role = await this.roles.insertMemberRole(tenant, owner, this.securedProperties(), tx);
    const made = (entity: string, recordKey: number, name: string): ChangeEntry => ({
      operation: 'created',
      entity,
      recordKey,
      owner,
      changes: { name: { new: name } },
    });
    this.changeLog.record(tx, input.actor ?? SYSTEM_ACTOR, [
      made('organization', organization.key, organization.name),
      made('business_unit', businessUnit.key, businessUnit.name),
      made('role', role.key, MEMBER_ROLE),
      // Its privileges and secured properties, as an edit of its rows would be logged.
      {
        operation: 'privileges_changed',
        entity: 'role',
        recordKey: role.key,
        owner,
        detail: { created: role.rows },
      },
    ]);
    return { organization, businessUnit, admin };
  }

  /**
   * Every secured property the entity types declare: role `member` grants them all, but
   * those of types only a privilege naming them reaches (the change log).
   */
  private securedProperties(): { entity: string; property: string }[] {
    return this.registry
      .all()
      .filter((type) => !governingType(type).grantedByName)
      .flatMap((type) =>
        [...type.properties.values()]
          .filter((property) => property.secured)
          .map((property) => ({ entity: type.name, property: property.name })),
      );
  }
}

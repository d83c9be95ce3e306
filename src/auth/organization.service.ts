import { ConflictException, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { insertMemberRole } from '../access/role-grants';
import { EntityRegistry } from '../entity/entity.registry';
import { BusinessUnit, Organization, User } from './entities';
import { nextKey, UserService } from './user.service';

export const DEFAULT_BUSINESS_UNIT = 'Main';

export interface NewOrganization {
  name: string;
  adminUserName: string;
  adminPassword: string;
}

export interface CreatedOrganization {
  organization: Organization;
  businessUnit: BusinessUnit;
  admin: User;
}

@Injectable()
export class OrganizationService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UserService,
    private readonly registry: EntityRegistry,
  ) {}

  /**
   * An organization, its business unit `Main`, its admin user and role `member`, in one
   * transaction.
   * The three rows own each other (system columns), so their keys are drawn first and
   * the foreign keys are checked at commit.
   */
  createOrganization(input: NewOrganization): Promise<CreatedOrganization> {
    return this.dataSource.transaction((manager) => this.insertOrganization(manager, input));
  }

  /** Creates the organization unless one with that name exists; returns it in both cases. */
  async ensureOrganization(input: NewOrganization): Promise<CreatedOrganization | undefined> {
    return this.dataSource.transaction(async (manager) => {
      // Two instances starting on an empty database must not both create it.
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('atrium.organization'))`);
      const existing = await manager.getRepository(Organization).countBy({ name: input.name });
      return existing ? undefined : this.insertOrganization(manager, input);
    });
  }

  async hasAnyOrganization(): Promise<boolean> {
    return (await this.dataSource.getRepository(Organization).count()) > 0;
  }

  private async insertOrganization(
    manager: EntityManager,
    input: NewOrganization,
  ): Promise<CreatedOrganization> {
    if (await manager.getRepository(Organization).existsBy({ name: input.name })) {
      throw new ConflictException(`Organization ${input.name} already exists`);
    }
    if (await manager.getRepository(User).existsBy({ userName: input.adminUserName })) {
      throw new ConflictException(`User ${input.adminUserName} already exists`);
    }
    const organizationKey = await nextKey(manager, 'organization');
    const businessUnitKey = await nextKey(manager, 'business_unit');
    const admin = await this.users.create(manager, {
      userName: input.adminUserName,
      password: input.adminPassword,
      isAdmin: true,
      organizationKey,
      businessUnitKey,
    });
    const owner = {
      idOrganization: organizationKey,
      idBusinessUnit: businessUnitKey,
      idUser: admin.key,
    };
    const organization = await manager
      .getRepository(Organization)
      .save({ key: organizationKey, name: input.name, ...owner });
    const businessUnit = await manager
      .getRepository(BusinessUnit)
      .save({ key: businessUnitKey, name: DEFAULT_BUSINESS_UNIT, ...owner });
    const secured = this.registry
      .all()
      .flatMap((type) =>
        [...type.properties.values()]
          .filter((property) => property.secured)
          .map((property) => ({ entity: type.name, property: property.name })),
      );
    await insertMemberRole(manager, owner, secured);
    return { organization, businessUnit, admin };
  }
}

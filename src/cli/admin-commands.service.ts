import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiKeyService } from '../auth/api-key.service';
import { BusinessUnit, Organization, User } from '../auth/entities';
import { OrganizationService } from '../auth/organization.service';
import { UserService } from '../auth/user.service';
import { grantRoles } from '../access/role-grants';
import { CliCommand } from './cli.arguments';
import { CommandFailedError } from './cli.errors';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What a command prints: results on stdout, remarks for the person on stderr. */
export interface CommandOutput {
  stdout: string[];
  stderr: string[];
}

type Command<Name extends CliCommand['name']> = Extract<CliCommand, { name: Name }>;

@Injectable()
export class AdminCommandsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly organizations: OrganizationService,
    private readonly users: UserService,
    private readonly apiKeys: ApiKeyService,
  ) {}

  async createOrganization(command: Command<'org:create'>): Promise<CommandOutput> {
    const { organization, businessUnit, admin } = await this.organizations.createOrganization({
      name: command.organization,
      adminUserName: command.adminUserName,
      adminPassword: command.adminPassword,
    });
    return {
      stdout: [
        `Created organization "${organization.name}" (key ${organization.key}) with business unit ` +
          `"${businessUnit.name}" and admin user "${admin.userName}" (key ${admin.key})`,
      ],
      stderr: [],
    };
  }

  async createUser(command: Command<'user:create'>): Promise<CommandOutput> {
    const organization = await this.dataSource
      .getRepository(Organization)
      .findOneBy({ name: command.organization });
    if (!organization) {
      throw new CommandFailedError(`Organization "${command.organization}" does not exist`);
    }
    const businessUnit = await this.dataSource
      .getRepository(BusinessUnit)
      .findOneBy(
        command.businessUnit === undefined
          ? { key: organization.idBusinessUnit }
          : { idOrganization: organization.key, name: command.businessUnit },
      );
    if (!businessUnit) {
      throw new CommandFailedError(
        `Business unit "${command.businessUnit}" does not exist in "${organization.name}"`,
      );
    }
    const user = await this.dataSource.transaction(async (manager) => {
      if (await manager.getRepository(User).existsBy({ userName: command.userName })) {
        throw new CommandFailedError(`User "${command.userName}" already exists`);
      }
      return this.users.create(manager, {
        userName: command.userName,
        fullName: command.fullName,
        password: command.password,
        isAdmin: command.isAdmin,
        organizationKey: organization.key,
        businessUnitKey: businessUnit.key,
        roles: command.roles,
      });
    });
    const role = user.isAdmin ? 'admin user' : 'user';
    return {
      stdout: [
        `Created ${role} "${user.userName}" (key ${user.key}) in organization ` +
          `"${organization.name}", business unit "${businessUnit.name}"`,
      ],
      stderr: [],
    };
  }

  async grantRoles(command: Command<'role:grant'>): Promise<CommandOutput> {
    const user = await this.users.findByName(command.userName);
    if (!user) throw new CommandFailedError(`User "${command.userName}" does not exist`);
    await this.dataSource.transaction((manager) => grantRoles(manager, user, command.roles));
    return {
      stdout: [`User "${user.userName}" holds ${command.roles.map((r) => `"${r}"`).join(', ')}`],
      stderr: [],
    };
  }

  async createApiKey(command: Command<'apikey:create'>): Promise<CommandOutput> {
    const user = await this.users.findByName(command.userName);
    if (!user) throw new CommandFailedError(`User "${command.userName}" does not exist`);
    if (!user.active) {
      throw new CommandFailedError(
        `User "${command.userName}" is inactive; its keys would be refused`,
      );
    }
    const expiresAt = command.expiresInDays
      ? new Date(Date.now() + command.expiresInDays * DAY_MS)
      : undefined;
    const created = await this.apiKeys.create(user.key, command.keyName, expiresAt);
    const expiry = created.expiresAt ? `expires ${created.expiresAt.toISOString()}` : 'no expiry';
    return {
      // Alone on stdout, so `KEY=$(... apikey:create ...)` captures exactly the secret.
      stdout: [created.key],
      stderr: [
        `Created API key "${created.name}" (id ${created.id}) for user "${user.userName}", ${expiry}.`,
        'Store the secret now: it is not shown again.',
      ],
    };
  }
}

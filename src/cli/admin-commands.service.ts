import { Injectable } from '@nestjs/common';
import { ApiKeyService } from '../auth/api-key.service';
import { identityOf } from '../auth/identity.mapper';
import { CLI_ACTOR } from '../changes/change-log.service';
import { Transactions } from '../database/transactions.service';
import { OrganizationService } from '../directory/organization.service';
import { UserService } from '../directory/user.service';
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
    private readonly transactions: Transactions,
    private readonly organizations: OrganizationService,
    private readonly users: UserService,
    private readonly apiKeys: ApiKeyService,
  ) {}

  async createOrganization(command: Command<'org:create'>): Promise<CommandOutput> {
    const { organization, businessUnit, admin } = await this.organizations.createOrganization({
      name: command.organization,
      adminUserName: command.adminUserName,
      adminPassword: command.adminPassword,
      actor: CLI_ACTOR,
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
    const organization = await this.organizations.findByName(command.organization);
    if (!organization) {
      throw new CommandFailedError(`Organization "${command.organization}" does not exist`);
    }
    const businessUnit = await this.organizations.findBusinessUnit(
      organization,
      command.businessUnit,
    );
    if (!businessUnit) {
      throw new CommandFailedError(
        `Business unit "${command.businessUnit}" does not exist in "${organization.name}"`,
      );
    }
    const user = await this.transactions.run(async (tx) => {
      if (await this.users.findByName(command.userName, tx)) {
        throw new CommandFailedError(`User "${command.userName}" already exists`);
      }
      return this.users.create(
        {
          userName: command.userName,
          fullName: command.fullName,
          password: command.password,
          isAdmin: command.isAdmin,
          organizationKey: organization.key,
          businessUnitKey: businessUnit.key,
          roles: command.roles,
          actor: CLI_ACTOR,
        },
        tx,
      );
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
    await this.users.grantRoles(user, command.roles, undefined, CLI_ACTOR);
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
    const holder = identityOf(user, 'api-key', user.locale);
    const created = await this.apiKeys.create(holder, command.keyName, expiresAt, CLI_ACTOR);
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

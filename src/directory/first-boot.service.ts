import { Injectable, Logger, OnApplicationBootstrap, SetMetadata } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ConfigService } from '@nestjs/config';
import { Environment } from '../config/environment';
import { CreatedOrganization, OrganizationService } from './organization.service';
import { ProviderDiscovery } from '../common/provider-discovery';
import { newSecret } from '../common/secrets';

export const DEMO_ORGANIZATION = 'Demo';
export const DEMO_ADMIN = 'admin';
const FIRST_BOOT = 'atrium:first-boot';

/** A provider whose `onFirstBoot` runs once, right after the Demo organization is made. */
export const OnFirstBoot = () => SetMetadata(FIRST_BOOT, true);

export interface FirstBootHandler {
  onFirstBoot(created: CreatedOrganization): Promise<void>;
}

/** Where a generated admin password is written, in DATA_DIR. */
export const ADMIN_PASSWORD_FILE = 'admin-password';

/** What a start made that found the database empty. */
export interface FirstStart {
  /** ADMIN_PASSWORD gave the admin's password: no file holds it. */
  adminPasswordSet: boolean;
}

/**
 * On an empty database: organization `Demo`, business unit `Main`, admin user `admin`;
 * then the `@OnFirstBoot()` providers (the demo data set).
 */
@Injectable()
export class FirstBootService implements OnApplicationBootstrap {
  private readonly logger = new Logger(FirstBootService.name);
  /** Set when this start found the database empty: main.ts then says where things are. */
  firstStart?: FirstStart;

  constructor(
    private readonly organizations: OrganizationService,
    private readonly config: ConfigService<Environment, true>,
    private readonly discovery: ProviderDiscovery,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (await this.organizations.hasAnyOrganization()) return;
    const configured = this.config.get('ADMIN_PASSWORD', { infer: true });
    const password = configured ?? newSecret().slice(0, 20);
    const created = await this.organizations.ensureOrganization({
      name: DEMO_ORGANIZATION,
      adminUserName: DEMO_ADMIN,
      adminPassword: password,
    });
    if (!created) return;
    if (!configured) await this.writeAdminPassword(password);
    this.firstStart = { adminPasswordSet: configured !== undefined };
    for (const handler of this.firstBootHandlers()) await handler.onFirstBoot(created);
  }

  /**
   * Only its hash is stored, and no log line holds a password: it goes to a file only
   * this OS user can read, as Jenkins does with its first password.
   */
  private async writeAdminPassword(password: string): Promise<void> {
    const file = this.passwordFile();
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, `${password}\n`, { mode: 0o600 });
    await chmod(file, 0o600); // a file left from an earlier database keeps its mode
    this.logger.log(
      `Created user "${DEMO_ADMIN}"; its password is in ${file}: sign in, change it, delete the file`,
    );
  }

  /** The generated admin password's file while it is there: every start's banner names it. */
  adminPasswordFile(): string | undefined {
    const file = this.passwordFile();
    return existsSync(file) ? file : undefined;
  }

  private passwordFile(): string {
    return resolve(this.config.get('DATA_DIR', { infer: true }), ADMIN_PASSWORD_FILE);
  }

  private firstBootHandlers(): FirstBootHandler[] {
    return this.discovery
      .classesWith<true>(FIRST_BOOT)
      .map(({ instance }) => instance as unknown as FirstBootHandler);
  }
}

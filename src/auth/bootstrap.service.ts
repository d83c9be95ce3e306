import { Injectable, Logger, OnApplicationBootstrap, SetMetadata } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DiscoveryService } from '@nestjs/core';
import { Environment } from '../config/environment';
import { CreatedOrganization, OrganizationService } from './organization.service';
import { newSecret } from '../common/secrets';

export const DEMO_ORGANIZATION = 'Demo';
export const DEMO_ADMIN = 'admin';
const FIRST_BOOT = 'atrium:first-boot';

/** A provider whose `onFirstBoot` runs once, right after the Demo organization is made. */
export const OnFirstBoot = () => SetMetadata(FIRST_BOOT, true);

export interface FirstBootHandler {
  onFirstBoot(created: CreatedOrganization): Promise<void>;
}

/**
 * On an empty database: organization `Demo`, business unit `Main`, admin user `admin`;
 * then the `@OnFirstBoot()` providers (the demo data set).
 */
@Injectable()
export class BootstrapService implements OnApplicationBootstrap {
  private readonly logger = new Logger(BootstrapService.name);

  constructor(
    private readonly organizations: OrganizationService,
    private readonly config: ConfigService<Environment, true>,
    private readonly discovery: DiscoveryService,
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
    if (!configured) {
      // Shown this once: only its hash is stored.
      this.logger.warn(`Created user "${DEMO_ADMIN}" with password: ${password}`);
    }
    for (const handler of this.firstBootHandlers()) await handler.onFirstBoot(created);
  }

  private firstBootHandlers(): FirstBootHandler[] {
    return this.discovery
      .getProviders()
      .filter((wrapper) => wrapper.metatype && Reflect.getMetadata(FIRST_BOOT, wrapper.metatype))
      .map((wrapper) => wrapper.instance as FirstBootHandler);
  }
}

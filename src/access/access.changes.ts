import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Listening, PostgresListener } from '../database/postgres-listener';
import { AccessService } from './access.service';

/** The channel the access tables' triggers notify (migration AccessControl). */
const CHANNEL = 'atrium_access';

/**
 * Keeps AccessService's caches true across instances. Writes to roles, privileges, user
 * roles and units fire a statement trigger that notifies CHANNEL, which every instance
 * listens to (PostgreSQL delivers it at commit, so other instances forget within
 * milliseconds); the writer's own instance forgets at its commit already (the directory's
 * hooks). While the listening connection is down nothing is cached (see AccessService).
 */
@Injectable()
export class AccessChanges implements OnApplicationBootstrap, Listening {
  readonly about = 'access changes';

  constructor(
    private readonly listener: PostgresListener,
    private readonly access: AccessService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.listener.listen(CHANNEL, this);
  }

  onNotification(): void {
    this.access.forget();
  }

  onHearing(hearing: boolean): void {
    this.access.cacheScopes(hearing);
  }
}

import { Injectable, Module } from '@nestjs/common';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { EntityEvent } from '../src/events/entity-event';
import { OnEntityEvent } from '../src/events/event.decorators';
import { EventsServer, startEventsServer, stopped } from './helpers/events-server';
import { waitFor } from './helpers/postmaster';
import { apiKeyUser, createTestApp, TestApp } from './helpers/test-app';

/** The events this version's subscriber (which the fixture's version lacks) was given. */
const audited = new Set<string>();

@Injectable()
class AccountAuditor {
  @OnEntityEvent('account', ['created'])
  audit(event: EntityEvent): Promise<void> {
    audited.add(event.id);
    return Promise.resolve();
  }
}

@Module({ providers: [AccountAuditor] })
class AuditorModule {}

/**
 * Two versions of the app side by side, as during a rolling deploy: this process, whose
 * subscriber is AccountAuditor, and the fixture server's, whose subscriber (EventRecorder)
 * appends account events' ids to a file. Neither polls: each dispatches what it commits.
 */
describe('events with two versions of the app on one database', () => {
  let t: TestApp;
  let other: EventsServer;
  let key: string;
  let dir: string;
  let eventsFile: string;

  beforeAll(async () => {
    t = await createTestApp({ EVENTS_POLL_MS: '60000' }, [AuditorModule]);
    ({ key } = await apiKeyUser(t));
    dir = await mkdtemp(join(tmpdir(), 'atrium-versions-'));
    eventsFile = join(dir, 'events');
    await writeFile(eventsFile, '');
    other = await startEventsServer({
      DATABASE_URL: process.env.ATRIUM_TEST_DATABASE_URL!,
      EVENTS_FILE: eventsFile,
      EVENTS_POLL_MS: '60000',
    });
  });
  afterAll(async () => {
    await stopped(other.child, 'SIGTERM');
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  const recorded = async () => (await readFile(eventsFile, 'utf8')).split('\n').filter(Boolean);

  /** An account made through `server`: its change-log entry's key, the event's id. */
  async function account(server: string, name: string): Promise<string> {
    const { body } = await request(server)
      .post('/rest/entity/account')
      .set('X-API-Key', key)
      .send({ entity_name: 'account', properties: { name } })
      .expect(200);
    const [{ entry }] = await t.dataSource.query(
      `SELECT key::text AS entry FROM change_log WHERE entity = 'account' AND record_key = $1`,
      [body.key],
    );
    return entry as string;
  }

  it("routes the events one version dispatches to the other's subscribers too", async () => {
    const byOther = await account(other.url, 'Dispatched by the other version');
    await waitFor(async () => audited.has(byOther) && (await recorded()).includes(byOther), 20_000);
    const byThis = await account(t.http, 'Dispatched by this version');
    await waitFor(async () => audited.has(byThis) && (await recorded()).includes(byThis), 20_000);
  });
});

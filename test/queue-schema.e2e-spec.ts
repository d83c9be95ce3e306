import { Injectable, Module } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { getConstructionPlans, getRollbackPlans } from 'pg-boss';
import { newDatabaseOn } from '../src/database/throwaway-database';
import { Job } from '../src/events/event.decorators';
import { QUEUE_SCHEMA } from '../src/queue/job-queue.service';
import { waitFor } from './helpers/postmaster';
import { createTestApp } from './helpers/test-app';

const ran: unknown[] = [];

@Injectable()
class KeptJob {
  @Job('upgrade-kept')
  run(data: unknown): Promise<void> {
    ran.push(data);
    return Promise.resolve();
  }
}

@Module({ providers: [KeptJob] })
class KeptJobModule {}

/**
 * pg-boss owns its schema: it makes it, and migrates it as it starts. A database whose
 * queue schema is older than the installed pg-boss (as one made by an earlier version is)
 * is brought to the installed version with its jobs kept.
 */
describe('the queue schema across a pg-boss upgrade', () => {
  it("is migrated by pg-boss as the app starts, its queues' jobs kept", async () => {
    const name = `atrium_queue_upgrade_${randomBytes(4).toString('hex')}`;
    const url = await newDatabaseOn(process.env.ATRIUM_TEST_DATABASE_URL!, name);
    try {
      await upgraded(url);
    } finally {
      const admin = new Client({ connectionString: process.env.ATRIUM_TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});

/**
 * The database at `url`, with the installed pg-boss's schema rolled back one version by its
 * own plans and a job waiting, then the app started on it.
 */
async function upgraded(url: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  let current: number;
  try {
    // The schema as the installed pg-boss makes it, then one version back by its own plans.
    await client.query(getConstructionPlans(QUEUE_SCHEMA));
    ({ version: current } = (await client.query(`SELECT version FROM pgboss.version`)).rows[0]);
    await client.query(getRollbackPlans(QUEUE_SCHEMA, current));
    const { rows } = await client.query(`SELECT version FROM pgboss.version`);
    expect(rows[0].version).toBe(current - 1);
    // A job waiting in it, sent by the earlier version.
    await client.query(
      `SELECT pgboss.create_queue('upgrade-kept', '{"policy": "standard"}'::jsonb)`,
    );
    await client.query(
      `INSERT INTO pgboss.job (name, data) VALUES ('upgrade-kept', '{"payload": {"sent": "before"}}')`,
    );
  } finally {
    await client.end();
  }

  const t = await createTestApp({}, [KeptJobModule], url);
  try {
    const [{ version }] = await t.dataSource.query(`SELECT version FROM pgboss.version`);
    expect(version).toBe(current);
    await waitFor(() => ran.length > 0, 20_000);
    expect(ran).toEqual([{ sent: 'before' }]);
  } finally {
    await t.close();
  }
}

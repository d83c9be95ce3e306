import { Controller, Get, Injectable, Module } from '@nestjs/common';
import request from 'supertest';
import { Requires } from '../src/access/requires.decorator';
import { Public } from '../src/http/caller.decorators';
import { Job } from '../src/events/event.decorators';
import { JobQueue } from '../src/queue/job-queue.service';
import { FailedJob, findFailedJob } from './helpers/failed-jobs';
import { waitFor } from './helpers/postmaster';
import { apiKeyUser, createTestApp, seedAdmin, TestApp } from './helpers/test-app';
import { WebhookReceiver } from './helpers/webhook-receiver';

/** A route both public and privileged: what the guard must not let an anonymous caller into. */
@Controller('test-privileged')
class PrivilegedTestController {
  @Get('open')
  @Public()
  @Requires('manage-jobs')
  open() {
    return { opened: true };
  }
}

/** A job that fails its one attempt: a dead letter to retry. */
const DOOMED = 'privileged-doomed';

@Injectable()
class DoomedJob {
  @Job(DOOMED, { retryLimit: 0 })
  run(): Promise<void> {
    return Promise.reject(new Error('doomed'));
  }
}

@Module({ controllers: [PrivilegedTestController], providers: [DoomedJob] })
class PrivilegedTestModule {}

type Method = 'get' | 'post';
interface Operation {
  'x-atrium-requires'?: string;
  responses: Record<string, { description: string }>;
}

/**
 * Every route that needs a named privilege (`@Requires`): a 403 saying why for a member,
 * what it does for an administrator, and its operation in the OpenAPI document naming the
 * privilege, as the same decorator has it.
 */
describe('routes that need a named privilege', () => {
  let t: TestApp;
  let admin: string;
  let member: string;
  let document: { paths: Record<string, Record<Method, Operation>> };
  const receiver = new WebhookReceiver();
  /** What the administrator's requests made, for the later ones. */
  const made: { webhook?: number; delivery?: number; invoice?: number; failedJob?: string } = {};

  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', EVENTS_POLL_MS: '100' }, [
      PrivilegedTestModule,
    ]);
    admin = (await seedAdmin(t)).key;
    member = (await apiKeyUser(t)).key;
    document = (await request(t.http).get('/docs-json').expect(200)).body;
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  const send = (method: Method, path: string, key: string, body?: object) => {
    const sent = request(t.http)[method](path).set('X-API-Key', key);
    return body ? sent.send(body) : sent;
  };

  /** [privilege, method, documented path, the path sent, body, the administrator's status]. */
  const ROUTES: [string, Method, string, () => string, object | undefined, number][] = [
    ['manage-webhooks', 'post', '/rest/webhooks', () => '/rest/webhooks', undefined, 201],
    [
      'manage-webhooks',
      'post',
      '/rest/webhooks/{key}/secret',
      () => `/rest/webhooks/${made.webhook}/secret`,
      undefined,
      200,
    ],
    [
      'manage-webhooks',
      'post',
      '/rest/webhooks/{key}/test',
      () => `/rest/webhooks/${made.webhook}/test`,
      undefined,
      202,
    ],
    [
      'manage-webhooks',
      'get',
      '/rest/webhooks/{key}/deliveries',
      () => `/rest/webhooks/${made.webhook}/deliveries`,
      undefined,
      200,
    ],
    [
      'manage-webhooks',
      'get',
      '/rest/webhooks/{key}/deliveries/{delivery}',
      () => `/rest/webhooks/${made.webhook}/deliveries/${made.delivery}`,
      undefined,
      200,
    ],
    [
      'manage-webhooks',
      'post',
      '/rest/webhooks/{key}/deliveries/{delivery}/replay',
      () => `/rest/webhooks/${made.webhook}/deliveries/${made.delivery}/replay`,
      undefined,
      202,
    ],
    ['manage-jobs', 'get', '/rest/jobs/failed', () => '/rest/jobs/failed', undefined, 200],
    [
      'manage-jobs',
      'post',
      '/rest/jobs/failed/{id}/retry',
      () => `/rest/jobs/failed/${made.failedJob}/retry`,
      undefined,
      204,
    ],
    [
      'purge-history',
      'post',
      '/rest/entity/invoice/{key}/history/purge',
      () => `/rest/entity/invoice/${made.invoice}/history/purge`,
      {},
      200,
    ],
  ];

  it.each(ROUTES)('%s: %s %s', async (privilege, method, documented, path, body, status) => {
    if (documented === '/rest/webhooks') {
      body = { name: 'Privileged', url: `${receiver.url}/hook`, events: 'account.created' };
    }
    if (documented.includes('{delivery}') && made.delivery === undefined) {
      const { body: log } = await send('get', `/rest/webhooks/${made.webhook}/deliveries`, admin);
      made.delivery = log[0].key;
    }
    if (documented.startsWith('/rest/jobs/failed/') && made.failedJob === undefined) {
      made.failedJob = await failedJobOfTheOrganization();
    }
    if (documented.startsWith('/rest/entity/invoice') && made.invoice === undefined) {
      made.invoice = (
        await send('post', '/rest/entity/invoice', admin, { properties: { id_account: 1 } }).expect(
          200,
        )
      ).body.key;
    }

    const refused = await send(method, path(), member, body).expect(403);
    expect(refused.body).toEqual({ detail: expect.stringMatching(/^Only administrators may /) });

    const done = await send(method, path(), admin, body).expect(status);
    if (documented === '/rest/webhooks') made.webhook = done.body.key;
    if (documented.endsWith('/test')) {
      // The test's delivery is in the log once it is made.
      await waitFor(
        async () =>
          (await send('get', `/rest/webhooks/${made.webhook}/deliveries`, admin)).body.length > 0,
      );
    }

    const operation = document.paths[documented]?.[method];
    expect(operation?.['x-atrium-requires']).toBe(privilege);
    expect(operation.responses['403'].description).toMatch(
      new RegExp(`^Needs the privilege ${privilege} `),
    );
  });

  it('lists each route of the document that needs one, and no other', () => {
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => operation['x-atrium-requires'])
        .map(([method]) => `${method} ${path}`),
    );
    const expected = ROUTES.map(([, method, path]) => `${method} ${path}`);
    // Every type with a history documents its purge; the table above checks the invoice's.
    const others = documented.filter(
      (route) => !expected.includes(route) && route !== 'get /test-privileged/open',
    );
    expect(
      others.every((route) => /^post \/rest\/entity\/\w+\/\{key\}\/history\/purge$/.test(route)),
    ).toBe(true);
    expect(expected.filter((route) => !documented.includes(route))).toEqual([]);
  });

  it('refuses a privileged route that is also public to an anonymous caller: 401', async () => {
    const { status, body } = await request(t.http).get('/test-privileged/open');
    expect({ status, body }).toEqual({
      status: 401,
      body: { detail: 'This route needs the privilege manage-jobs' },
    });
    await send('get', '/test-privileged/open', admin).expect(200);
  });

  it('tells the caller the privileges it holds', async () => {
    const asMember = await send('get', '/rest/metadata/privileges', member).expect(200);
    expect(asMember.body.privileges).toEqual([]);
    const asAdmin = await send('get', '/rest/metadata/privileges', admin).expect(200);
    expect(asAdmin.body.privileges).toEqual([
      'manage-webhooks',
      'manage-jobs',
      'purge-history',
      'read-audit',
      'correct-records',
    ]);
  });

  /** A delivery job of the administrator's organization, marked failed as a last attempt leaves it. */
  /** A job of the organization that failed for good: its dead letter's id. */
  async function failedJobOfTheOrganization(): Promise<string> {
    const [{ idOrganization }] = await t.dataSource.query(
      `SELECT id_organization AS "idOrganization" FROM "user" WHERE user_name = 'admin'`,
    );
    const id = await t.app
      .get(JobQueue)
      .send(DOOMED, { organization: Number(idOrganization), actor: null, payload: {} });
    let dead: FailedJob | undefined;
    await waitFor(async () => {
      dead = await findFailedJob((path) => send('get', path, admin), id!);
      return dead !== undefined;
    }, 20_000);
    return dead!.id;
  }
});

import { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { AppModule, AppOptions } from '../../src/app.module';
import { createApp, initApp } from '../../src/app.setup';
import { MEMBER_ROLE } from '../../src/directory/role.repository';
import { ApiKeyService } from '../../src/auth/api-key.service';
import { identityOf } from '../../src/auth/identity.mapper';
import { OrganizationService } from '../../src/directory/organization.service';
import { UserService } from '../../src/directory/user.service';
import { validateEnvironment } from '../../src/config/environment';
import { DEMO_ORGANIZATION } from '../../src/directory/first-boot.service';
import { Organization, User } from '../../src/directory/entities';

export interface TestApp {
  app: INestApplication;
  http: ReturnType<INestApplication['getHttpServer']>;
  dataSource: DataSource;
  close(): Promise<void>;
}

/**
 * Boots the real app, configured as main.ts configures it, on the suite's database (or
 * `databaseUrl`). `env` overrides variables for this app only (e.g. a low login limit).
 */
export async function createTestApp(
  env: Record<string, string> = {},
  extension: AppOptions['modules'] | Omit<AppOptions, 'databaseUrl'> = [],
  databaseUrl = process.env.ATRIUM_TEST_DATABASE_URL,
): Promise<TestApp> {
  const { modules, migrations } = Array.isArray(extension) ? { modules: extension } : extension;
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    if (!databaseUrl)
      throw new Error('ATRIUM_TEST_DATABASE_URL is set by test/setup-suite-database.ts');
    const env = validateEnvironment(process.env);
    const app = await createApp(AppModule.forRoot({ databaseUrl, modules, migrations }), env, {
      logger: false,
      // Throw instead of exiting the test process when a module fails to build.
      abortOnError: false,
    });
    try {
      await initApp(app);
    } catch (error) {
      // A boot that fails (on purpose, in some tests) must not leave its pool open.
      await app.close().catch(() => undefined);
      throw error;
    }
    return {
      app,
      http: app.getHttpServer(),
      dataSource: app.get(DataSource),
      close: () => app.close(),
    };
  } finally {
    process.env = saved;
  }
}

export interface Credentials {
  /** The Cookie header value carrying the three session cookies. */
  cookie: string;
  csrfToken: string;
  token: string;
}

export async function login(
  testApp: TestApp,
  user: string,
  password: string,
): Promise<Credentials> {
  const response = await request(testApp.http).post('/auth').send({ user, password }).expect(200);
  const setCookies = response.headers['set-cookie'] as unknown as string[];
  const pairs = setCookies.map((line) => line.split(';')[0]);
  const token = pairs.find((p) => p.startsWith('svc.rest.auth.token='))!.split('=')[1];
  return { cookie: pairs.join('; '), csrfToken: response.headers['x-csrf-token'], token };
}

/** A new user of the Demo organization, signed in with a cookie session. */
export async function sessionOfNewUser(testApp: TestApp): Promise<Credentials> {
  const user = await createUser(testApp);
  return login(testApp, user.userName, user.password);
}

/**
 * POST /rest/fetch (or `path`) as the owner of `apiKey`: FETCH text as text/plain, a
 * tree as JSON.
 */
/**
 * Self-joins over the demo lines' quantities: far more rows than any statement timeout of
 * the tests lets PostgreSQL count, however fast the machine.
 */
export const HEAVY_FETCH = `FETCH invoice_line (COUNT(*) AS n)
  { invoice_line AS b FROM quantity TO quantity
    { invoice_line AS c FROM quantity TO quantity { invoice_line AS d FROM quantity TO quantity } } }`;

export function postFetch(
  testApp: TestApp,
  apiKey: string,
  body: string | object,
  path = '/rest/fetch',
): request.Test {
  const text = typeof body === 'string';
  return request(testApp.http)
    .post(path)
    .set('X-API-Key', apiKey)
    .set('Content-Type', text ? 'text/plain' : 'application/json')
    .send(text ? body : JSON.stringify(body));
}

export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(5).toString('hex')}`;
}

/**
 * A user in the Demo organization (or `organizationKey`), created through the service,
 * holding role `member` (organization depth on every type) unless `roles` says otherwise.
 */
export async function createUser(
  testApp: TestApp,
  options: {
    isAdmin?: boolean;
    password?: string;
    organizationKey?: number;
    roles?: string[];
    businessUnitKey?: number;
  } = {},
): Promise<{ userName: string; password: string; key: number }> {
  const userName = uniqueName('user');
  const password = options.password ?? 'user-password-1';
  const organization = options.organizationKey
    ? await testApp.dataSource
        .getRepository(Organization)
        .findOneByOrFail({ key: options.organizationKey })
    : await testApp.dataSource
        .getRepository(Organization)
        .findOneByOrFail({ name: DEMO_ORGANIZATION });
  const user = await testApp.app.get(UserService).create({
    userName,
    password,
    isAdmin: options.isAdmin,
    organizationKey: organization.key,
    businessUnitKey: options.businessUnitKey ?? organization.idBusinessUnit,
    roles: options.roles ?? [MEMBER_ROLE],
  });
  return { userName, password, key: user.key };
}

/** A second organization with its own admin, for tenancy tests. */
export async function createOrganization(testApp: TestApp) {
  const adminUserName = uniqueName('orgadmin');
  const created = await testApp.app.get(OrganizationService).createOrganization({
    name: uniqueName('org'),
    adminUserName,
    adminPassword: 'org-admin-password',
  });
  return { ...created, adminUserName, adminPassword: 'org-admin-password' };
}

/**
 * A second app in the same test file, as a second server instance would be. It gets
 * its own module registry: passport keeps strategies in a process-wide registry, so two
 * apps sharing one would end up authenticating through whichever registered last.
 */
export async function createSecondTestApp(
  env: Record<string, string> = {},
  databaseUrl?: string,
): Promise<TestApp> {
  let created: Promise<TestApp> | undefined;
  await jest.isolateModulesAsync(async () => {
    const isolated = await import('./test-app');
    created = isolated.createTestApp(env, [], databaseUrl);
  });
  return created!;
}

/** A new user of the Demo organization (or `organizationKey`) and an API key for it. */
export async function apiKeyUser(
  testApp: TestApp,
  options: Parameters<typeof createUser>[1] = {},
): Promise<{ key: string; userKey: number; userName: string }> {
  const user = await createUser(testApp, options);
  return { key: await apiKeyFor(testApp, user.key), userKey: user.key, userName: user.userName };
}

/** An API key for an existing user. */
export async function apiKeyFor(testApp: TestApp, userKey: number): Promise<string> {
  const user = await testApp.dataSource.getRepository(User).findOneByOrFail({ key: userKey });
  const holder = identityOf(
    {
      key: user.key,
      userName: user.userName,
      fullName: user.fullName,
      idOrganization: Number(user.idOrganization),
      idBusinessUnit: Number(user.idBusinessUnit),
      isAdmin: user.isAdmin,
    },
    'api-key',
    user.locale,
  );
  return (await testApp.app.get(ApiKeyService).create(holder, 'test')).key;
}

/** The seed's admin, who owns the demo rows, and an API key for them. */
export async function seedAdmin(testApp: TestApp): Promise<{ user: User; key: string }> {
  const user = await testApp.dataSource.getRepository(User).findOneByOrFail({ userName: 'admin' });
  return { user, key: await apiKeyFor(testApp, user.key) };
}

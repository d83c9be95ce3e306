import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { BusinessUnit, Organization, User } from '../src/directory/entities';
import { CliResult, environmentWithout, runCli } from './helpers/child-process';
import {
  createOrganization,
  createTestApp,
  createUser,
  TestApp,
  uniqueName,
} from './helpers/test-app';

describe('admin CLI (dist/src/cli.js)', () => {
  let t: TestApp;
  let workDir: string;

  /** The CLI on this run's database, as an operator would run it with DATABASE_URL. */
  const cli = (...args: string[]): Promise<CliResult> =>
    runCli(args, {
      cwd: workDir,
      env: { ...environmentWithout('DATA_DIR'), DATABASE_URL: databaseUrl() },
    });

  const expectOneLineError = (result: CliResult, exitCode: number, pattern: RegExp) => {
    expect(result.code).toBe(exitCode);
    expect(result.stderr).toMatch(pattern);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(result.stderr).not.toMatch(/^\s+at /m);
  };

  const logIn = (user: string, password: string) =>
    request(t.http).post('/auth').send({ user, password });

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'atrium-cli-'));
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
    await rm(workDir, { recursive: true, force: true });
  });

  it('prints the usage for help and for no command, without touching a database', async () => {
    for (const args of [['help'], []]) {
      const result = await runCli(args, { cwd: workDir, env: environmentWithout() });
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^Usage: npm run cli -- <command>/m);
      expect(result.stdout).toContain('org:create --name <org> --admin <user>');
    }
    expect(existsSync(join(workDir, 'data'))).toBe(false);
  });

  describe('org:create', () => {
    it('creates the organization, its business unit Main, role member and an admin who can log in', async () => {
      const name = uniqueName('org');
      const admin = uniqueName('admin');
      const result = await cli(
        'org:create',
        '--name',
        name,
        '--admin',
        admin,
        '--password',
        'admin-pass-1',
      );
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toContain(`Created organization "${name}"`);

      const organization = await t.dataSource.getRepository(Organization).findOneByOrFail({ name });
      const businessUnit = await t.dataSource
        .getRepository(BusinessUnit)
        .findOneByOrFail({ key: organization.idBusinessUnit });
      expect(businessUnit).toMatchObject({ name: 'Main', idOrganization: organization.key });
      // Role member, as the upgrade made it: every type at organization depth, every
      // secured property.
      const member = await t.dataSource.query(
        `SELECT p.entity_name, p.read, p.write, f.entity_name AS field_entity, f.property,
                f.read AS field_read, f.update AS field_update
           FROM role r JOIN role_privilege p ON p.id_role = r.key
           LEFT JOIN role_field_permission f ON f.id_role = r.key
          WHERE r.id_organization = $1 AND r.name = 'member'`,
        [organization.key],
      );
      expect(member).toEqual([
        {
          entity_name: '*',
          read: 'organization',
          write: 'organization',
          field_entity: 'account',
          property: 'credit_limit',
          field_read: true,
          field_update: true,
        },
      ]);
      const user = await t.dataSource.getRepository(User).findOneByOrFail({ userName: admin });
      expect(user.isAdmin).toBe(true);

      const { body } = await logIn(admin, 'admin-pass-1').expect(200);
      expect(body).toMatchObject({
        userName: admin,
        userOrganizationKey: organization.key,
        userBusinessUnitKey: businessUnit.key,
      });
    });

    it('refuses a taken organization name with exit code 1 and leaves no admin behind', async () => {
      const existing = await createOrganization(t);
      const admin = uniqueName('admin');
      const result = await cli(
        'org:create',
        '--name',
        existing.organization.name,
        '--admin',
        admin,
        '--password',
        'admin-pass-1',
      );
      expectOneLineError(result, 1, new RegExp(`${existing.organization.name} already exists`));
      expect(await t.dataSource.getRepository(User).existsBy({ userName: admin })).toBe(false);
    });
  });

  describe('user:create', () => {
    it("adds a user to the organization's business unit Main who can log in", async () => {
      const { organization, businessUnit } = await createOrganization(t);
      const userName = uniqueName('user');
      const result = await cli(
        'user:create',
        '--org',
        organization.name,
        '--user',
        userName,
        '--password',
        'user-pass-1',
      );
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(result.stdout).toContain(`Created user "${userName}"`);

      const user = await t.dataSource.getRepository(User).findOneByOrFail({ userName });
      expect(user.isAdmin).toBe(false);
      const { body } = await logIn(userName, 'user-pass-1').expect(200);
      expect(body).toMatchObject({
        userOrganizationKey: organization.key,
        userBusinessUnitKey: businessUnit.key,
      });
    });

    it('makes an admin with --admin', async () => {
      const { organization } = await createOrganization(t);
      const userName = uniqueName('user');
      const result = await cli(
        'user:create',
        '--org',
        organization.name,
        '--user',
        userName,
        '--password',
        'user-pass-1',
        '--admin',
      );
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`Created admin user "${userName}"`);
      const user = await t.dataSource.getRepository(User).findOneByOrFail({ userName });
      expect(user.isAdmin).toBe(true);
    });

    it('refuses an unknown organization with exit code 1', async () => {
      const result = await cli(
        'user:create',
        '--org',
        uniqueName('missing'),
        '--user',
        uniqueName('user'),
        '--password',
        'user-pass-1',
      );
      expectOneLineError(result, 1, /^atrium: Organization "missing_\w+" does not exist$/m);
    });

    it('refuses a taken user name with exit code 1', async () => {
      const { organization, adminUserName } = await createOrganization(t);
      const result = await cli(
        'user:create',
        '--org',
        organization.name,
        '--user',
        adminUserName,
        '--password',
        'user-pass-1',
      );
      expectOneLineError(result, 1, new RegExp(`User "${adminUserName}" already exists`));
    });
  });

  describe('roles', () => {
    const rolesOf = async (userName: string): Promise<string[]> =>
      (
        await t.dataSource.query(
          `SELECT r.name FROM user_role ur JOIN role r ON r.key = ur.id_role
             JOIN "user" u ON u.key = ur.id_parent_user WHERE u.user_name = $1 ORDER BY r.name`,
          [userName],
        )
      ).map((row: { name: string }) => row.name);

    it('user:create --role gives the roles, --unit places the user in that unit', async () => {
      const { organization, admin } = await createOrganization(t);
      const unit = uniqueName('unit');
      await t.dataSource.query(
        `INSERT INTO business_unit (name, id_parent_business_unit, id_organization, id_business_unit, id_user)
         VALUES ($1, $2, $3, $2, $4)`,
        [unit, organization.idBusinessUnit, organization.key, admin.key],
      );
      const userName = uniqueName('user');
      const result = await cli(
        'user:create',
        '--org',
        organization.name,
        '--user',
        userName,
        '--password',
        'user-pass-1',
        '--unit',
        unit,
        '--role',
        'member',
      );
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(await rolesOf(userName)).toEqual(['member']);
      const user = await t.dataSource.getRepository(User).findOneByOrFail({ userName });
      const placed = await t.dataSource
        .getRepository(BusinessUnit)
        .findOneByOrFail({ key: user.idBusinessUnit });
      expect(placed.name).toBe(unit);
    });

    it('refuses an unknown role or unit with exit code 1 and creates no user', async () => {
      const { organization } = await createOrganization(t);
      for (const [option, value, message] of [
        ['--role', 'nope', /^atrium: No role named "nope" in this organization$/m],
        ['--unit', 'nowhere', /^atrium: Business unit "nowhere" does not exist/m],
      ] as const) {
        const userName = uniqueName('user');
        const result = await cli(
          'user:create',
          '--org',
          organization.name,
          '--user',
          userName,
          '--password',
          'user-pass-1',
          option,
          value,
        );
        expectOneLineError(result, 1, message);
        expect(await t.dataSource.getRepository(User).existsBy({ userName })).toBe(false);
      }
    });

    it('role:grant gives a user roles, each held once', async () => {
      const { organization } = await createOrganization(t);
      const user = await createUser(t, { organizationKey: organization.key, roles: [] });
      expect(await rolesOf(user.userName)).toEqual([]);
      for (let i = 0; i < 2; i++) {
        const result = await cli('role:grant', '--user', user.userName, '--role', 'member');
        expect(result).toMatchObject({ code: 0, stderr: '' });
        expect(result.stdout).toContain(`User "${user.userName}" holds "member"`);
      }
      expect(await rolesOf(user.userName)).toEqual(['member']);
      expectOneLineError(
        await cli('role:grant', '--user', user.userName),
        2,
        /^atrium: role:grant needs --role <role>$/m,
      );
      expectOneLineError(
        await cli('role:grant', '--user', uniqueName('ghost'), '--role', 'member'),
        1,
        /does not exist/,
      );
    });
  });

  describe('apikey:create', () => {
    it('prints the secret alone on the last line, and the key authenticates GET /auth', async () => {
      const owner = await createUser(t);
      const result = await cli('apikey:create', '--user', owner.userName, '--name', 'nightly');
      expect(result.code).toBe(0);
      const secret = result.stdout.trimEnd().split('\n').at(-1)!;
      expect(secret).toMatch(/^atr_[\w-]{43}$/);

      const { body } = await request(t.http).get('/auth').set('X-API-Key', secret).expect(200);
      expect(body).toMatchObject({ userName: owner.userName, userKey: owner.key });
      const [row] = await t.dataSource.query(
        `SELECT name, expires_at FROM api_key WHERE id_user = $1`,
        [owner.key],
      );
      expect(row).toEqual({ name: 'nightly', expires_at: null });
    });

    it('sets the expiry --expires-days ahead', async () => {
      const owner = await createUser(t);
      const before = Date.now();
      const result = await cli('apikey:create', '--user', owner.userName, '--expires-days', '2');
      expect(result.code).toBe(0);
      const [row] = await t.dataSource.query(`SELECT expires_at FROM api_key WHERE id_user = $1`, [
        owner.key,
      ]);
      const twoDays = 2 * 24 * 60 * 60 * 1000;
      expect(row.expires_at.getTime()).toBeGreaterThanOrEqual(before + twoDays);
      expect(row.expires_at.getTime()).toBeLessThanOrEqual(Date.now() + twoDays);
    });

    it('refuses an unknown user with exit code 1', async () => {
      const result = await cli('apikey:create', '--user', uniqueName('nobody'));
      expectOneLineError(result, 1, /^atrium: User "nobody_\w+" does not exist$/m);
    });
  });

  describe('wrong usage', () => {
    it('names a missing option, exits with code 2 and creates nothing', async () => {
      const name = uniqueName('org');
      const result = await cli('org:create', '--name', name, '--password', 'admin-pass-1');
      expectOneLineError(result, 2, /^atrium: org:create needs --admin <user>$/m);
      expect(await t.dataSource.getRepository(Organization).existsBy({ name })).toBe(false);
    });

    it('refuses an option without its value and an unknown option with code 2', async () => {
      expectOneLineError(await cli('apikey:create', '--user'), 2, /--user/);
      expectOneLineError(
        await cli('apikey:create', '--user', 'admin', '--colour', 'red'),
        2,
        /Unknown option '--colour'/,
      );
    });

    it('refuses a password shorter than the minimum with code 2', async () => {
      const result = await cli(
        'user:create',
        '--org',
        'Demo',
        '--user',
        uniqueName('user'),
        '--password',
        'short',
      );
      expectOneLineError(result, 2, /--password must be at least 8 characters/);
    });

    it('answers an unknown command with the usage and code 2', async () => {
      const result = await cli('org:delete', '--name', 'Demo');
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^atrium: Unknown command "org:delete"$/m);
      expect(result.stderr).toContain('Usage: npm run cli -- <command>');
      expect(result.stdout).toBe('');
    });
  });

  it('reports an unreachable database in one line with code 1', async () => {
    const result = await runCli(['apikey:create', '--user', 'admin'], {
      cwd: workDir,
      env: { ...process.env, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/atrium' },
    });
    expectOneLineError(result, 1, /^atrium: Cannot open the database: .*ECONNREFUSED/m);
  });
});

function databaseUrl(): string {
  const url = process.env.ATRIUM_TEST_DATABASE_URL;
  if (!url) throw new Error('ATRIUM_TEST_DATABASE_URL is set by test/setup-suite-database.ts');
  return url;
}

import { HttpException, Module } from '@nestjs/common';
import { EntityHooks, HookContext } from '../src/data/entity-hooks';
import { AccessFixture, as } from './helpers/access';
import { createOrganization, createTestApp, TestApp, uniqueName } from './helpers/test-app';

/**
 * An application's hook written against the scoped data API: it reads the accounts whose
 * keys a new contact's first name lists, by FETCH and one by one, and keeps what it saw.
 */
@EntityHooks('contact')
class AccountProbe {
  static fetched: number[] = [];
  static reads: Record<number, number> = {};

  async onBeforeInsert({ entity, data }: HookContext): Promise<void> {
    if (entity.properties.last_name === 'clash') {
      // A product whose code is taken: a 409 that aborts the write's transaction.
      await data.create('product', { properties: { code: entity.properties.first_name } });
    }
    const keys = JSON.parse(entity.properties.first_name as string) as number[];
    const { rows } = await data.fetch({
      entity: 'account',
      properties: [{ property: 'key' }],
      filter: [{ type: 'And', conditions: [{ property: 'key', operator: 'in', value: keys }] }],
    });
    AccountProbe.fetched = rows.map((row) => row.key as number).sort((a, b) => a - b);
    AccountProbe.reads = {};
    for (const key of keys) {
      AccountProbe.reads[key] = await data.read('account', key).then(
        () => 200,
        (error: HttpException) => error.getStatus(),
      );
    }
    entity.properties.first_name = 'probed';
  }
}

@Module({ providers: [AccountProbe] })
class ProbeModule {}

describe('the scoped data API of hooks and workflows', () => {
  let t: TestApp;
  let f: AccessFixture;

  beforeAll(async () => {
    t = await createTestApp({}, [ProbeModule]);
    f = await AccessFixture.create(t);
  });
  afterAll(() => t.close());

  it('shows a hook only the records its caller may read, of the caller’s organization', async () => {
    const role = await f.role({
      account: { create: 'user', read: 'user' },
      contact: { create: 'user', read: 'user' },
    });
    const caller = await f.user(f.units.child, [role.name]);
    const account = async (apiKey: string) =>
      (
        await as(t, apiKey)
          .post('/rest/entity/account', { properties: { name: uniqueName('a') } })
          .expect(200)
      ).body.key as number;
    const own = await account(caller.apiKey);
    const colleagues = await account(f.admin);
    const other = await createOrganization(t);
    const [{ key: foreign }] = await t.dataSource.query(
      `INSERT INTO account (name, id_organization, id_business_unit, id_user)
       VALUES ('foreign', $1, $2, $3) RETURNING key`,
      [other.organization.key, other.businessUnit.key, other.admin.key],
    );

    await as(t, caller.apiKey)
      .post('/rest/entity/contact', {
        properties: { last_name: 'probe', first_name: JSON.stringify([own, colleagues, foreign]) },
      })
      .expect(200);
    expect(AccountProbe.fetched).toEqual([own]);
    expect(AccountProbe.reads).toEqual({ [own]: 200, [colleagues]: 404, [foreign]: 404 });

    // The administrator's hook sees its whole organization, still not another one.
    await as(t, f.admin)
      .post('/rest/entity/contact', {
        properties: { last_name: 'probe', first_name: JSON.stringify([own, colleagues, foreign]) },
      })
      .expect(200);
    expect(AccountProbe.fetched).toEqual([own, colleagues].sort((a, b) => a - b));
    expect(AccountProbe.reads).toEqual({ [own]: 200, [colleagues]: 200, [foreign]: 404 });
  });

  it('answers a hook’s own error when it aborted the transaction, with the lookups still unchecked', async () => {
    const post = (name: string, properties: object) =>
      as(t, f.admin).post(`/rest/entity/${name}`, { properties });
    const code = uniqueName('clash');
    await post('product', { code }).expect(200);
    const account = (await post('account', { name: uniqueName('a') }).expect(200)).body.key;
    const { body } = await post('contact', {
      last_name: 'clash',
      first_name: code,
      id_account: account,
    }).expect(409);
    expect(body.detail).toBe('product.code: another product already has this code');
  });
});

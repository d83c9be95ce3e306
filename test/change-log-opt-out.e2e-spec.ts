import { as } from './helpers/access';
import { apiKeyUser, createTestApp, TestApp } from './helpers/test-app';
import { Readings1795700000001, ReadingsModule } from './fixtures/readings.module';

/** `@BusinessEntity(name, { audit: false })`: the type's writes leave no entry. */
describe('a type that opts out of the change log', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp({}, { modules: [ReadingsModule], migrations: [Readings1795700000001] });
    ({ key } = await apiKeyUser(t));
  });
  afterAll(() => t.close());

  const entriesOf = async (entity: string, recordKey: number) =>
    Number(
      (
        await t.dataSource.query(
          'SELECT count(*) AS n FROM change_log WHERE entity = $1 AND record_key = $2',
          [entity, recordKey],
        )
      )[0].n,
    );

  it('writes, updates and deletes its records without an entry, beside a type that logs', async () => {
    const reading = (
      await as(t, key)
        .post('/rest/entity/meter_reading', { properties: { value: 1 } })
        .expect(200)
    ).body.key;
    await as(t, key)
      .post(`/rest/entity/meter_reading/${reading}`, { properties: { value: 2 } })
      .expect(200);
    await as(t, key).delete(`/rest/entity/meter_reading/${reading}`).expect(200);
    expect(await entriesOf('meter_reading', reading)).toBe(0);

    const account = (
      await as(t, key)
        .post('/rest/entity/account', { properties: { name: 'Logged' } })
        .expect(200)
    ).body.key;
    expect(await entriesOf('account', account)).toBe(1);
  });
});

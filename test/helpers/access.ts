import request from 'supertest';
import { apiKeyFor, createUser, seedAdmin, TestApp, uniqueName } from './test-app';

export type Depth = 'none' | 'user' | 'business_unit' | 'business_unit_tree' | 'organization';
export const DEPTHS: Depth[] = [
  'none',
  'user',
  'business_unit',
  'business_unit_tree',
  'organization',
];
export type Privilege = { create?: Depth; read?: Depth; write?: Depth; delete?: Depth };
export type FieldPermission = {
  entity_name: string;
  property: string;
  read: boolean;
  update: boolean;
};

/**
 * Who owns a test's records. The caller is `self`, in unit Child; the others are another
 * user of Child, a user of Grandchild (below Child), of Sibling (beside it) and of Main
 * (above both):
 *
 *   Main ─┬─ Child ── Grandchild
 *         └─ Sibling
 */
export const OWNERS = ['self', 'sameUnit', 'grandchild', 'sibling', 'root'] as const;
export type Owner = (typeof OWNERS)[number];

/** The owners whose records a depth reaches, for the caller `self`. */
export const REACH: Record<Depth, Owner[]> = {
  none: [],
  user: ['self'],
  business_unit: ['self', 'sameUnit'],
  business_unit_tree: ['self', 'sameUnit', 'grandchild'],
  organization: [...OWNERS],
};

export type Units = Record<'main' | 'child' | 'grandchild' | 'sibling', number>;

/** A request maker for one API key. */
export function as(t: TestApp, apiKey: string) {
  return {
    get: (path: string) => request(t.http).get(path).set('X-API-Key', apiKey),
    post: (path: string, body: object) =>
      request(t.http).post(path).set('X-API-Key', apiKey).send(body),
    delete: (path: string) => request(t.http).delete(path).set('X-API-Key', apiKey),
  };
}

/** The unit tree above, a user owning records in each place, and ways to make roles. */
export class AccessFixture {
  readonly units = {} as Units;
  readonly owners = {} as Record<Owner, number>;
  /** The administrator's API key. */
  admin = '';

  private constructor(readonly t: TestApp) {}

  static async create(t: TestApp): Promise<AccessFixture> {
    const fixture = new AccessFixture(t);
    const { user, key } = await seedAdmin(t);
    fixture.admin = key;
    const units = fixture.units;
    units.main = user.idBusinessUnit;
    units.child = await fixture.unit('child', units.main);
    units.grandchild = await fixture.unit('grandchild', units.child);
    units.sibling = await fixture.unit('sibling', units.main);
    const unitOf: Record<Owner, number> = {
      self: units.child,
      sameUnit: units.child,
      grandchild: units.grandchild,
      sibling: units.sibling,
      root: units.main,
    };
    for (const owner of OWNERS) {
      fixture.owners[owner] = (await fixture.user(unitOf[owner], ['member'])).key;
    }
    return fixture;
  }

  async unit(name: string, parent: number): Promise<number> {
    const { body } = await as(this.t, this.admin)
      .post('/rest/entity/business_unit', {
        properties: { name: uniqueName(name), id_parent_business_unit: parent },
      })
      .expect(200);
    return body.key;
  }

  async role(
    privileges: Record<string, Privilege>,
    fields: FieldPermission[] = [],
  ): Promise<{ key: number; name: string }> {
    const name = uniqueName('role');
    const { body } = await as(this.t, this.admin)
      .post('/rest/entity/role', {
        properties: { name },
        children: {
          role_role_privilege: Object.entries(privileges).map(([entity_name, p]) => ({
            properties: { entity_name, ...p },
          })),
          role_role_field_permission: fields.map((f) => ({ properties: f })),
        },
      })
      .expect(200);
    return { key: body.key, name };
  }

  /** A user in `unit` holding `roles`, and an API key for it. */
  async user(unit: number, roles: string[]): Promise<{ key: number; apiKey: string }> {
    const created = await createUser(this.t, { businessUnitKey: unit, roles });
    return { key: created.key, apiKey: await apiKeyFor(this.t, created.key) };
  }

  /** Replaces the roles a user holds, as an administrator does through the entity API. */
  async holds(userKey: number, roleKeys: number[]): Promise<void> {
    const { body } = await as(this.t, this.admin).get(`/rest/entity/user/${userKey}`).expect(200);
    await as(this.t, this.admin)
      .post(`/rest/entity/user/${userKey}`, {
        properties: { full_name: body.properties.full_name },
        children: { user_user_role: roleKeys.map((id_role) => ({ properties: { id_role } })) },
      })
      .expect(200);
  }

  /** Gives a record (and its children) to an owner, as the administrator. */
  async give(entity: string, key: number, owner: Owner): Promise<void> {
    await as(this.t, this.admin)
      .post(`/rest/entity/${entity}/${key}/owner`, { userKey: this.owners[owner] })
      .expect(200);
  }
}

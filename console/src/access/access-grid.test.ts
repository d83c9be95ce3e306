import { describe, expect, it } from 'vitest';
import type { EntityTypeInfo, Envelope } from '../api/entities';
import { depthsOf, fieldGridOf, privilegeGridOf, roleChildren, userRoles } from './access-grid';

const TYPES: EntityTypeInfo[] = [
  {
    name: 'account',
    label: 'Account',
    properties: [
      { name: 'name', label: 'Name', type: 'string', system: false },
      {
        name: 'credit_limit',
        label: 'Credit limit',
        type: 'decimal',
        system: false,
        secured: true,
      },
    ],
  },
  { name: 'invoice', label: 'Invoice', properties: [] },
  { name: 'invoice_line', label: 'Line', parent: 'invoice', properties: [] },
];

const ROLE: Envelope = {
  entity_name: 'role',
  properties: { key: 2, name: 'sales' },
  children: {
    role_role_privilege: [
      {
        entity_name: 'role_privilege',
        properties: {
          key: 20,
          entity_name: 'account',
          create: 'user',
          read: 'business_unit',
          write: 'user',
          delete: 'none',
        },
      },
    ],
    role_role_field_permission: [
      {
        entity_name: 'role_field_permission',
        properties: {
          key: 30,
          entity_name: 'account',
          property: 'credit_limit',
          read: true,
          update: false,
        },
      },
    ],
  },
};

describe('the privilege grid', () => {
  it('has a row per top-level type, none where the role grants nothing', () => {
    expect(privilegeGridOf(TYPES, ROLE)).toEqual({
      account: { create: 'user', read: 'business_unit', write: 'user', delete: 'none' },
      invoice: { create: 'none', read: 'none', write: 'none', delete: 'none' },
    });
    expect(fieldGridOf(TYPES, ROLE)).toEqual({
      'account.credit_limit': { read: true, update: false },
    });
  });

  it('saves the granted rows, stored ones by key, and drops those granting nothing', () => {
    const privileges = privilegeGridOf(TYPES, ROLE);
    privileges.account = { create: 'none', read: 'none', write: 'none', delete: 'none' };
    privileges.invoice = { ...privileges.invoice, read: 'organization' };
    const fields = fieldGridOf(TYPES, ROLE);
    fields['account.credit_limit'] = { read: true, update: true };
    expect(roleChildren(ROLE, privileges, fields)).toEqual({
      role_role_privilege: [
        {
          entity_name: 'role_privilege',
          properties: {
            entity_name: 'invoice',
            create: 'none',
            read: 'organization',
            write: 'none',
            delete: 'none',
          },
        },
      ],
      role_role_field_permission: [
        {
          entity_name: 'role_field_permission',
          properties: {
            key: 30,
            entity_name: 'account',
            property: 'credit_limit',
            read: true,
            update: true,
          },
        },
      ],
    });
  });
});

describe('the depths', () => {
  it('are the ones the server describes for a privilege', () => {
    const depths = ['none', 'user', 'organization'];
    const privilege: EntityTypeInfo = {
      name: 'role_privilege',
      label: 'Role privilege',
      parent: 'role',
      properties: [{ name: 'read', label: 'Read', type: 'string', system: false, enum: depths }],
    };
    expect(depthsOf([...TYPES, privilege])).toEqual(depths);
  });
});

describe("a user's roles", () => {
  it('keeps the links that stay by key and adds the new ones', () => {
    const user: Envelope = {
      entity_name: 'user',
      properties: { key: 5 },
      children: {
        user_user_role: [
          { entity_name: 'user_role', properties: { key: 50, id_role: 1 } },
          { entity_name: 'user_role', properties: { key: 51, id_role: 2 } },
        ],
      },
    };
    expect(userRoles(user, [2, 3])).toEqual([
      { entity_name: 'user_role', properties: { key: 51, id_role: 2 } },
      { entity_name: 'user_role', properties: { id_role: 3 } },
    ]);
  });
});

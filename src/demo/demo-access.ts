import type { Depth } from '../access/access.depth';

/**
 * The demo's security model (docs/access-control.md): two units under Main, a role per
 * kind of user showing the depths, and a user or two holding each. Passwords come from
 * DEMO_USER_PASSWORD; without it the users exist but cannot sign in until an
 * administrator sets theirs.
 */
export const DEMO_UNITS = ['Sales', 'Support'] as const;

type Privileges = { create: Depth; read: Depth; write: Depth; delete: Depth };
const all = (depth: Depth): Privileges => ({
  create: depth,
  read: depth,
  write: depth,
  delete: depth,
});

export interface DemoRole {
  name: string;
  description: string;
  privileges: Record<string, Privileges>;
  /** Secured properties: `entity.property` → may update (read is implied). */
  fields?: Record<string, boolean>;
}

export const DEMO_ROLES: DemoRole[] = [
  {
    name: 'sales-rep',
    description: 'Reads the accounts, contacts and invoices of its unit; changes its own',
    privileges: {
      account: { create: 'user', read: 'business_unit', write: 'user', delete: 'user' },
      contact: { create: 'user', read: 'business_unit', write: 'user', delete: 'user' },
      invoice: { create: 'user', read: 'business_unit', write: 'user', delete: 'user' },
      product: { create: 'none', read: 'organization', write: 'none', delete: 'none' },
      file: { create: 'user', read: 'business_unit', write: 'user', delete: 'user' },
    },
  },
  {
    name: 'support',
    description: 'Reads everything of the organization but credit limits; changes contacts',
    privileges: {
      '*': { create: 'none', read: 'organization', write: 'none', delete: 'none' },
      contact: {
        create: 'organization',
        read: 'organization',
        write: 'organization',
        delete: 'none',
      },
    },
  },
  {
    name: 'manager',
    description: 'Everything in its unit and the units below it, credit limits included',
    privileges: { '*': all('business_unit_tree') },
    fields: { 'account.credit_limit': true },
  },
];

export interface DemoUser {
  userName: string;
  fullName: string;
  unit: (typeof DEMO_UNITS)[number] | 'Main';
  role: string;
}

export const DEMO_USERS: DemoUser[] = [
  { userName: 'sara.sales', fullName: 'Sara Sales', unit: 'Sales', role: 'sales-rep' },
  { userName: 'sam.sales', fullName: 'Sam Sales', unit: 'Sales', role: 'sales-rep' },
  { userName: 'sue.support', fullName: 'Sue Support', unit: 'Support', role: 'support' },
  { userName: 'mia.manager', fullName: 'Mia Manager', unit: 'Main', role: 'manager' },
];

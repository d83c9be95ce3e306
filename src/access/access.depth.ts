/**
 * How far a privilege reaches (Dataverse's access levels), narrowest first: the records
 * a user owns, those of the user's business unit, of the unit and every unit below it,
 * or the whole organization.
 */
export const DEPTHS = [
  'none',
  'user',
  'business_unit',
  'business_unit_tree',
  'organization',
] as const;
export type Depth = (typeof DEPTHS)[number];

export const ACTIONS = ['create', 'read', 'write', 'delete'] as const;
export type Action = (typeof ACTIONS)[number];

/** The wider of two depths: a user holding several roles has the widest of them. */
export function widest(a: Depth, b: Depth): Depth {
  return DEPTHS.indexOf(a) >= DEPTHS.indexOf(b) ? a : b;
}

/**
 * Who a row belongs to: the owner columns every business row carries (`id_organization`,
 * `id_business_unit`, `id_user`). A new record's owner is its creator (an Identity has
 * these three keys too); a child's, its parent's.
 */
export interface Owner {
  organizationKey: number;
  businessUnitKey: number;
  userKey: number;
}

/** The owner columns of a row as read from the database, or of a record's properties. */
export function ownerOfRow(row: Record<string, unknown>): Owner {
  return {
    organizationKey: Number(row.id_organization),
    businessUnitKey: Number(row.id_business_unit),
    userKey: Number(row.id_user),
  };
}

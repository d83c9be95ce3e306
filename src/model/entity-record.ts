/** An entity as the API and the hooks see it (spec 2.2): API names, plain JSON values. */
export interface EntityRecord {
  entity_name: string;
  properties: Record<string, unknown>;
  children: Record<string, EntityRecord[]>;
}

import type { EntityMetadata } from 'typeorm';
import type { SecurityEvent, WriteAccess } from './entity.decorators';

export type PropertyType =
  'integer' | 'bigint' | 'decimal' | 'string' | 'boolean' | 'datetime' | 'date' | 'uuid' | 'json';

/** The PostgreSQL type a bound value is cast to, per API type (enums and json aside). */
export const CAST_TYPES: Record<PropertyType, string> = {
  integer: 'int4',
  bigint: 'int8',
  decimal: 'numeric',
  string: 'text',
  boolean: 'bool',
  datetime: 'timestamptz',
  date: 'date',
  uuid: 'uuid',
  json: 'jsonb',
};

export interface PropertyDefinition {
  /** API name = column name. */
  name: string;
  /** The name people read (`@Label`, else the name in words). */
  label: string;
  type: PropertyType;
  /** The PostgreSQL type a bound value is cast to where the statement needs one. */
  castType: string;
  nullable: boolean;
  /** A client must send a value on create: its own, not nullable, no default, not generated. */
  required: boolean;
  /**
   * Who sets it: the client, a hook (`@Computed`), the engine (system columns) or the
   * engine as the link to the parent row. Only `client` properties are read from input.
   */
  origin: 'client' | 'computed' | 'system' | 'parent';
  /** Never leaves the server (credentials). */
  hidden: boolean;
  /** Readable and updatable only where a role grants it (`@Secured`). */
  secured: boolean;
  length?: number;
  precision?: number;
  scale?: number;
  /** The allowed values of an enum column. */
  values?: string[];
  /** What the database stores when a create leaves a client property out (constants only). */
  defaultValue?: string | number | boolean;
  /** The entity type a lookup (`id_<entity>`) points at. */
  lookup?: string;
}

export interface ChildGroupDefinition {
  /** `<parent>_<child>` */
  name: string;
  child: EntityType;
  /** The child's column holding the parent's key (`id_<parent>`). */
  parentColumn: string;
}

export interface EntityType {
  name: string;
  /** The name people read (`@BusinessEntity`'s `label`, else the name in words). */
  label: string;
  write: WriteAccess;
  /** Security roles govern its records (else the organization reads them all). */
  privileges: boolean;
  /** Only a privilege naming it grants anything, not a role's `*` row. */
  grantedByName: boolean;
  writeOnly: string[];
  /** Whether its writes (and its children's) go to the change log. */
  audit: boolean;
  assignable: boolean;
  /** The route that makes its records, where the entity API's create does not. */
  createdBy?: string;
  securityEvent?: SecurityEvent;
  /** Properties that are rights: granting or taking one is also this security event. */
  securityProperties: Record<string, SecurityEvent>;
  properties: Map<string, PropertyDefinition>;
  /** The columns node-postgres reads into a Date (datetime and date). */
  dateColumns: string[];
  /** Whether it or a child type, at any level, has a secured property. */
  securedInTree: boolean;
  childGroups: ChildGroupDefinition[];
  /** Set on child types: the group they belong to. */
  parent?: { type: EntityType; column: string };
  metadata: EntityMetadata;
}

/** The system columns of DESIGN.md: set by the engine, never by a client. */
export const SYSTEM_COLUMNS = [
  'key',
  'id_organization',
  'id_business_unit',
  'id_user',
  'uuid',
  'date_created',
  'date_updated',
  'extended',
] as const;

/** The type whose privileges govern this one: itself, or for a child its top parent. */
export function governingType(type: EntityType): EntityType {
  let root = type;
  while (root.parent) root = root.parent.type;
  return root;
}

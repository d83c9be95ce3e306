import { call, getJson, jsonBody } from './http';

/** A property as GET /rest/metadata/entity describes it. */
export interface PropertyInfo {
  name: string;
  label: string;
  type: string;
  system: boolean;
  nullable?: boolean;
  required?: boolean;
  computed?: boolean;
  maxLength?: number;
  scale?: number;
  enum?: string[];
  /** What the database stores when a create leaves the property out. */
  default?: string | number | boolean;
  lookup?: { entity: string };
  /** Read and updated only where a role allows it. */
  secured?: true;
  writeOnly?: true;
}

export interface EntityTypeInfo {
  name: string;
  label: string;
  /** Set on child types: they are edited inside their parent. */
  parent?: string;
  childGroups?: { name: string; entity: string }[];
  properties: PropertyInfo[];
}

/** The entity envelope of spec 2.2. */
export interface Envelope {
  entity_name: string;
  properties: Record<string, unknown>;
  children?: Record<string, Envelope[]>;
}

/** A record as read, with the ETag an update or delete sends back as If-Match. */
export interface ReadRecord {
  envelope: Envelope;
  etag: string;
}

export const entityTypes = () => getJson<EntityTypeInfo[]>('/rest/metadata/entity');

const recordPath = (type: string, key?: number) =>
  `/rest/entity/${encodeURIComponent(type)}${key === undefined ? '' : `/${key}`}`;

export async function readRecord(type: string, key: number): Promise<ReadRecord> {
  const response = await call(recordPath(type, key));
  return { envelope: (await response.json()) as Envelope, etag: response.headers.get('ETag')! };
}

/** Create (no key) or update (key, If-Match the ETag read): the key written. */
export async function saveRecord(envelope: Envelope, key?: number, etag?: string) {
  const headers: HeadersInit = etag ? { 'If-Match': etag } : {};
  const result = await getJson<{ key: number }>(
    recordPath(envelope.entity_name, key),
    jsonBody('POST', envelope, headers),
  );
  return result.key;
}

export async function deleteRecord(type: string, key: number, etag?: string): Promise<void> {
  await call(recordPath(type, key), {
    method: 'DELETE',
    headers: etag ? { 'If-Match': etag } : {},
  });
}

/** A depth at which a role lets one act, `none` for not at all. */
export type Depth = 'none' | 'user' | 'business_unit' | 'business_unit_tree' | 'organization';

/** GET /rest/metadata/privileges: what the caller may do with each type. */
export interface Privileges {
  roles: string[];
  /** The named privileges it holds: `manage-webhooks`, `manage-jobs`, … */
  privileges: string[];
  entities: Record<string, Record<'create' | 'read' | 'write' | 'delete', Depth>>;
}

export const privileges = () => getJson<Privileges>('/rest/metadata/privileges');

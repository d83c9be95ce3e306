import { fetchString } from '../fetch/fetch-text';

export const AUDIT_PAGE_ROWS = 50;

/** What the Audit screen filters on; empty fields filter nothing. */
export interface AuditFilter {
  entity?: string;
  operation?: string;
  /** The user name of who made the change (or tried to sign in). */
  user?: string;
  /** Days, `YYYY-MM-DD`, in UTC: from the start of one to the end of the other. */
  from?: string;
  to?: string;
}

/** What happened, as the change log names it: records' writes, then security events. */
export const AUDIT_OPERATIONS = [
  'created',
  'updated',
  'deleted',
  'assigned',
  'version_added',
  'purged',
  'signed_in',
  'sign_in_failed',
  'signed_out',
  'password_changed',
  'password_reset',
  'api_key_created',
  'api_key_revoked',
  'privileges_changed',
  'roles_changed',
];

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The change log's entries the filter keeps, newest first, a page at a time. */
export function auditQuery(filter: AuditFilter): string {
  const conditions: string[] = [];
  if (filter.entity) conditions.push(`entity = ${fetchString(filter.entity)}`);
  if (filter.operation) conditions.push(`operation = ${fetchString(filter.operation)}`);
  if (filter.user?.trim()) conditions.push(`actor_name = ${fetchString(filter.user.trim())}`);
  if (filter.from && DAY.test(filter.from)) {
    conditions.push(`date_created >= ${fetchString(`${filter.from}T00:00:00Z`)}`);
  }
  if (filter.to && DAY.test(filter.to)) {
    conditions.push(`date_created <= ${fetchString(`${filter.to}T23:59:59.999Z`)}`);
  }
  return (
    'FETCH change_log (key, date_created, operation, entity, record_key, root_entity, root_key, ' +
    'actor_name, via, detail)' +
    (conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '') +
    ` ORDER BY key DESC LIMIT ${AUDIT_PAGE_ROWS}`
  );
}

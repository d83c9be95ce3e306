import type { EntityTypeInfo, Envelope, PropertyInfo } from '../api/entities';
import { cellText } from '../fetch/fetch-text';
import { Problems, noProblems } from './problems';

/** What a form field holds: text as typed, a checkbox's state, a lookup's key. */
export type FieldValue = string | boolean | number | null;
export type Values = Record<string, FieldValue>;

/** How a property is edited. */
export type Editor =
  | 'text'
  | 'textarea'
  | 'integer'
  | 'decimal'
  | 'boolean'
  | 'datetime'
  | 'date'
  | 'enum'
  | 'lookup'
  | 'json'
  | 'password';

/** Longer strings than this get a text area. */
const SHORT_TEXT = 255;

export function editorOf(property: PropertyInfo): Editor {
  if (property.writeOnly) return 'password';
  if (property.lookup) return 'lookup';
  if (property.enum) return 'enum';
  switch (property.type) {
    case 'integer':
    case 'bigint':
      return 'integer';
    case 'decimal':
    case 'boolean':
    case 'datetime':
    case 'date':
    case 'json':
      return property.type;
    default:
      return (property.maxLength ?? Infinity) > SHORT_TEXT ? 'textarea' : 'text';
  }
}

/** A form's properties: the type's own (computed ones shown, not edited), not the engine's. */
export const formProperties = (type: EntityTypeInfo) => type.properties.filter((p) => !p.system);

/** What the client sets: not computed. */
export const editable = (property: PropertyInfo) => !property.computed;

/** A record as the form holds it, and as it was read (what an update leaves out if equal). */
export interface RecordState {
  values: Values;
  initial: Values;
  /** Child rows by group; `key` for the rows that are stored. */
  children: Record<string, Row[]>;
  initialChildren: Record<string, Row[]>;
}

export interface Row {
  /** Set once stored. */
  key?: number;
  /** A new row's identity in the page, until it has a key. */
  id?: string;
  values: Values;
}

/** A datetime as a datetime-local input shows it: the browser's time zone, to the minute. */
export function isoToLocal(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/** A value as a list shows it: datetimes in local time, to the minute. */
export function displayText(property: PropertyInfo, raw: unknown): string {
  if (property.type === 'datetime' && typeof raw === 'string')
    return isoToLocal(raw).replace('T', ' ');
  return cellText(raw);
}

/** A value of the API as its field holds it. */
export function toFieldValue(property: PropertyInfo, raw: unknown): FieldValue {
  switch (editorOf(property)) {
    case 'boolean':
      return raw === true;
    case 'lookup':
      return raw === null || raw === undefined ? null : Number(raw);
    case 'password':
      return '';
    case 'datetime':
      return typeof raw === 'string' ? isoToLocal(raw) : '';
    case 'json':
      return raw === null || raw === undefined ? '' : JSON.stringify(raw, null, 2);
    default:
      return raw === null || raw === undefined ? '' : String(raw);
  }
}

const WHOLE = /^-?\d+$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** A field's value as the API takes it, or what is wrong with it. Blank is null. */
export function fromFieldValue(
  property: PropertyInfo,
  value: FieldValue,
): { value: unknown } | { problem: string } {
  if (typeof value !== 'string') return { value };
  const text = value.trim();
  if (text === '') return { value: null };
  switch (editorOf(property)) {
    case 'integer': {
      if (!WHOLE.test(text)) return { problem: 'Expected a whole number' };
      const number = Number(text);
      return { value: Number.isSafeInteger(number) ? number : text };
    }
    case 'decimal': {
      if (!DECIMAL.test(text)) return { problem: 'Expected a number such as 12.50' };
      const places = text.split('.')[1]?.length ?? 0;
      if (property.scale !== undefined && places > property.scale) {
        return { problem: `At most ${property.scale} decimal places` };
      }
      return { value: text }; // exact: a decimal travels as text, never as a float
    }
    case 'datetime': {
      const date = new Date(text);
      return Number.isNaN(date.getTime())
        ? { problem: 'Expected a date and time' }
        : { value: date.toISOString() };
    }
    case 'json':
      try {
        return { value: JSON.parse(text) as unknown };
      } catch {
        return { problem: 'Expected JSON' };
      }
    default:
      return { value }; // text as typed, spaces included
  }
}

/** A new record's fields: the database's defaults, else blank. */
export function blankValues(type: EntityTypeInfo): Values {
  return valuesOf(
    type,
    Object.fromEntries(formProperties(type).map((p) => [p.name, p.default ?? null])),
  );
}

export function valuesOf(type: EntityTypeInfo, properties: Record<string, unknown>): Values {
  return Object.fromEntries(
    formProperties(type).map((p) => [p.name, toFieldValue(p, properties[p.name])]),
  );
}

/** Types by name, for a record's child types and its lookups' targets. */
export type TypeIndex = ReadonlyMap<string, EntityTypeInfo>;

/** The form's state of a record as read (or a new one, without an envelope). */
export function stateOf(type: EntityTypeInfo, types: TypeIndex, envelope?: Envelope): RecordState {
  const values = envelope ? valuesOf(type, envelope.properties) : blankValues(type);
  const children = Object.fromEntries(
    (type.childGroups ?? []).map((group) => {
      const child = types.get(group.entity)!;
      const rows = (envelope?.children?.[group.name] ?? []).map((row) => ({
        key: row.properties.key as number,
        values: valuesOf(child, row.properties),
      }));
      return [group.name, rows];
    }),
  );
  return { values, initial: values, children, initialChildren: children };
}

/**
 * The envelope a save sends, or the problems found before sending. A create sends every
 * field with a value; an update only the fields changed, and a child group (the new full
 * set of its rows, spec 2.2) only when a row was added, changed or removed.
 */
export function envelopeOf(
  type: EntityTypeInfo,
  types: TypeIndex,
  state: RecordState,
  creating: boolean,
): { envelope: Envelope } | { problems: Problems } {
  const problems = noProblems();
  const properties = propertiesToSend(
    type,
    state.values,
    creating ? undefined : state.initial,
    (name, problem) => (problems.fields[name] = problem),
  );
  const children: Record<string, Envelope[]> = {};
  for (const group of type.childGroups ?? []) {
    const rows = state.children[group.name] ?? [];
    if (!creating && sameRows(rows, state.initialChildren[group.name] ?? [])) continue;
    const child = types.get(group.entity)!;
    const stored = new Map((state.initialChildren[group.name] ?? []).map((r) => [r.key, r]));
    children[group.name] = rows.map((row, index) => {
      const before = row.key === undefined ? undefined : stored.get(row.key)?.values;
      const sent = propertiesToSend(child, row.values, before, (name, problem) => {
        ((problems.rows[group.name] ??= {})[index] ??= {})[name] = problem;
      });
      return {
        entity_name: child.name,
        properties: row.key === undefined ? sent : { key: row.key, ...sent },
      };
    });
  }
  if (Object.keys(problems.fields).length > 0 || Object.keys(problems.rows).length > 0) {
    return { problems };
  }
  return { envelope: { entity_name: type.name, properties, children } };
}

/** The fields to send: all that have a value, or (given `before`) those that changed. */
function propertiesToSend(
  type: EntityTypeInfo,
  values: Values,
  before: Values | undefined,
  problem: (name: string, problem: string) => void,
): Record<string, unknown> {
  const sent: Record<string, unknown> = {};
  for (const property of formProperties(type).filter(editable)) {
    const value = values[property.name];
    if (before && value === before[property.name]) continue;
    const converted = fromFieldValue(property, value);
    if ('problem' in converted) problem(property.name, converted.problem);
    // A password is set when typed; a blank one is left as it is.
    else if (converted.value !== null || (before && !property.writeOnly)) {
      sent[property.name] = converted.value;
    }
  }
  return sent;
}

const sameRows = (a: Row[], b: Row[]) => JSON.stringify(a) === JSON.stringify(b);

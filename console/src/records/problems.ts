import type { EntityTypeInfo, Envelope } from '../api/entities';
import type { ApiError } from '../api/http';

/** What is wrong with a record, where the form shows it. */
export interface Problems {
  /** Said of the record as a whole. */
  form?: string;
  /** By property. */
  fields: Record<string, string>;
  /** By child group, row index and property ('' for the row as a whole). */
  rows: Record<string, Record<number, Record<string, string>>>;
  /** 412: someone changed the record since it was read. */
  stale?: boolean;
}

export const noProblems = (): Problems => ({ fields: {}, rows: {} });

/** A 424's record (spec 2.4). */
interface RuleFailure {
  propertyName?: string;
  childEntityName?: string;
  childPropertyName?: string;
  childEntityIndex?: number;
  detail?: string;
}

/** `invoice_invoice_line[1].quantity: …` (a child's property) and `invoice.currency: …`. */
const CHILD_PATH = /^(\w+)\[(\d+)\]\.(\w+): (.+)$/s;
const OWN_PATH = /^(\w+)\.(\w+): (.+)$/s;

/**
 * Where the server's refusal of a save belongs: a 424 on the field or the child row and
 * column it names, a 400 on the property its detail's path names, a 409 on the property
 * whose value is taken (that value named), a 412 as stale. Anything else: the form.
 */
export function problemsOf(error: ApiError, type: EntityTypeInfo, sent?: Envelope): Problems {
  const problems = noProblems();
  const detail = error.message;
  const own = new Set(type.properties.filter((p) => !p.system).map((p) => p.name));
  const groups = type.childGroups ?? [];
  const onRow = (group: string, index: number, property: string, text: string) => {
    ((problems.rows[group] ??= {})[index] ??= {})[property] = text;
  };

  if (error.status === 412) return { ...problems, stale: true, form: detail };
  if (error.status === 424) {
    const failure = error.body as RuleFailure;
    const group =
      groups.find((g) => g.name === failure.propertyName) ??
      groups.find((g) => g.entity === failure.childEntityName);
    if (group && failure.childEntityIndex !== undefined) {
      onRow(group.name, failure.childEntityIndex, failure.childPropertyName ?? '', detail);
    } else if (failure.propertyName && own.has(failure.propertyName)) {
      problems.fields[failure.propertyName] = detail;
    } else problems.form = detail;
    return problems;
  }
  if (error.status === 400 || error.status === 409) {
    const child = CHILD_PATH.exec(detail);
    if (child && groups.some((g) => g.name === child[1])) {
      onRow(child[1], Number(child[2]), child[3], child[4]);
      return problems;
    }
    const path = OWN_PATH.exec(detail);
    if (path && path[1] === type.name && own.has(path[2])) {
      const [, , property, text] = path;
      const value = sent?.properties[property];
      problems.fields[property] =
        error.status === 409 && value !== undefined ? `"${String(value)}" is taken: ${text}` : text;
      return problems;
    }
  }
  problems.form = detail;
  return problems;
}

export const hasProblems = (problems: Problems) =>
  Boolean(problems.form) ||
  Object.keys(problems.fields).length > 0 ||
  Object.keys(problems.rows).length > 0;

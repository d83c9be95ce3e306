import { CAST_TYPES, PropertyDefinition, PropertyType } from '../model/entity-type';
import { Compilation, HIDDEN } from './fetch.compilation';
import { resultKey, selectedItems } from './fetch.keys';
import { columnSql } from './fetch.predicates';
import { FetchQueryError, Source } from './fetch.schema';
import { Aggregate, DateGrouping, PropertyItem } from './fetch.tree';

/** One column of a result (FETCH.md §5). */
export interface ResultColumn {
  name: string;
  entity: string;
  property: string;
  type: PropertyType;
  aggregate?: Aggregate;
  nullable: boolean;
}

/** One item of the select list, as the statement and the result name it. */
export interface Selected {
  key: string;
  /** Where its value comes from; undefined for an aggregate. */
  source?: Source;
  /** The key, or a short stand-in where the key is too long for PostgreSQL. */
  name: string;
  sql: string;
  column: ResultColumn;
  aggregated: boolean;
  /** The type its value is bound as, in a keyset condition. */
  cast: string;
}

/** PostgreSQL cuts longer names (NAMEDATALEN - 1), which would merge two result keys. */
const MAX_NAME_BYTES = 63;

const NUMERIC: PropertyType[] = ['integer', 'bigint', 'decimal'];
const ORDERED: PropertyType[] = [...NUMERIC, 'string', 'datetime', 'date', 'boolean', 'uuid'];

/**
 * A date group's value as what it names, from the truncated instant in UTC (what it
 * groups by): `YEAR` 2026, `QUARTER` "2026-Q1", `MONTH` "2026-01", `WEEK` "2026-W05"
 * (ISO: its year is the week's), `DAY` "2026-01-31". Each text sorts as its instant does.
 */
const DATE_GROUP_LABELS: Record<
  DateGrouping,
  { label: (truncated: string) => string; type: PropertyType }
> = {
  year: { label: (t) => `extract(year FROM ${t})::int4`, type: 'integer' },
  quarter: { label: (t) => `to_char(${t}, 'YYYY-"Q"Q')`, type: 'string' },
  month: { label: (t) => `to_char(${t}, 'YYYY-MM')`, type: 'string' },
  week: { label: (t) => `to_char(${t}, 'IYYY-"W"IW')`, type: 'string' },
  day: { label: (t) => `${t}::date`, type: 'date' },
};

/** Digits an average keeps beyond those of the values averaged. */
const AVERAGE_EXTRA_DIGITS = 4;

/**
 * An average rounded to the property's scale and four digits more (a decimal(12,2) to 6,
 * an integer to 4), not PostgreSQL's 16; a decimal of no declared scale as PostgreSQL
 * gives it.
 */
function averageScaled(average: string, property: PropertyDefinition): string {
  const scale = property.type === 'decimal' ? property.scale : 0;
  return scale === undefined ? average : `round(${average}, ${scale + AVERAGE_EXTRA_DIGITS})`;
}

/** The select list: every source's items, the root's first, as FETCH.md §2 keys them. */
export function selectList(c: Compilation): Selected[] {
  const byNode = new Map(c.resolved.sources.map((s) => [s.node, s]));
  const selected: Omit<Selected, 'name'>[] = [];
  for (const entry of selectedItems(c.query)) {
    const source = byNode.get(entry.link ?? c.query)!;
    const prefix = source === c.resolved.root ? '' : `${source.name}.`;
    if (entry.item.property === '*' && !entry.item.aggregate) {
      for (const property of source.type.properties.values()) {
        // `*` is what the caller may see: no credentials, no secured property it may not read.
        if (property.hidden || !c.options.scope.canRead(source.type, property)) continue;
        const column = resultColumn(source, property.name, property.type);
        column.nullable ||= property.nullable;
        selected.push({
          key: prefix + property.name,
          source,
          sql: columnSql({ source, property }),
          column,
          aggregated: false,
          cast: property.castType,
        });
      }
    } else {
      selected.push(item(c, entry.item, source, resultKey(entry)!));
    }
  }
  const seen = new Set<string>();
  return selected.map((s, i) => {
    if (seen.has(s.key)) {
      throw new FetchQueryError(`two result columns are named "${s.key}": give one an alias`);
    }
    seen.add(s.key);
    s.column.name = s.key;
    const name = Buffer.byteLength(s.key) > MAX_NAME_BYTES ? HIDDEN.column(i) : s.key;
    return { ...s, name };
  });
}

function item(
  c: Compilation,
  item: PropertyItem,
  context: Source,
  key: string,
): Omit<Selected, 'name'> {
  const { aggregate, dateGrouping } = item;
  if (aggregate === 'count') {
    const column = resultColumn(context, '*', 'bigint', aggregate);
    return { key, sql: 'count(*)', column, aggregated: true, cast: 'int8' };
  }
  const reference = c.resolved.column(item.property, context);
  const { property, source } = reference;
  let sql = columnSql(reference);
  if (dateGrouping) {
    if (property.type !== 'datetime' && property.type !== 'date') {
      throw new FetchQueryError(
        `${item.property}: ${dateGrouping.toUpperCase()}() groups dates, not a ${property.type}`,
      );
    }
    const instant = property.type === 'date' ? `${sql}::timestamp` : `${sql} AT TIME ZONE 'UTC'`;
    const { label, type } = DATE_GROUP_LABELS[dateGrouping];
    sql = label(`date_trunc('${dateGrouping}', ${instant})`);
    const column = resultColumn(source, property.name, type);
    column.nullable ||= property.nullable;
    return { key, source, sql, column, aggregated: false, cast: CAST_TYPES[type] };
  }
  if (!aggregate) {
    const column = resultColumn(source, property.name, property.type);
    column.nullable ||= property.nullable;
    return { key, source, sql, column, aggregated: false, cast: property.castType };
  }
  const numeric = NUMERIC.includes(property.type);
  if ((aggregate === 'sum' || aggregate === 'avg') && !numeric) {
    throw new FetchQueryError(
      `${item.property}: ${aggregate.toUpperCase()} needs a number, not a ${property.type}`,
    );
  }
  if ((aggregate === 'min' || aggregate === 'max') && !ORDERED.includes(property.type)) {
    throw new FetchQueryError(
      `${item.property}: ${aggregate.toUpperCase()} cannot order a ${property.type}`,
    );
  }
  const fn = aggregate === 'countcolumn' ? 'count' : aggregate;
  sql = `${fn}(${item.distinct ? 'DISTINCT ' : ''}${sql})`;
  if (aggregate === 'avg') sql = averageScaled(sql, property);
  const type: PropertyType =
    aggregate === 'countcolumn'
      ? 'bigint'
      : aggregate === 'avg' || (aggregate === 'sum' && property.type !== 'integer')
        ? 'decimal'
        : aggregate === 'sum'
          ? 'bigint'
          : property.type;
  const column = resultColumn(source, property.name, type, aggregate);
  column.nullable = aggregate !== 'countcolumn';
  return { key, sql, column, aggregated: true, cast: CAST_TYPES[type] };
}

function resultColumn(
  source: Source,
  property: string,
  type: PropertyType,
  aggregate?: Aggregate,
): ResultColumn {
  // An OUTER link (or one inside it) may have no row: its columns can be null.
  let outer = false;
  for (let s: Source | undefined = source; s; s = s.parent) outer ||= s.kind === 'outer';
  return {
    name: '',
    entity: source.type.name,
    property,
    type,
    ...(aggregate ? { aggregate } : {}),
    nullable: outer,
  };
}

import { quoteIdentifier } from '../database/sql';
import { Compilation, HIDDEN } from './fetch.compilation';
import { KeysetItem } from './fetch.paging';
import { columnSql } from './fetch.predicates';
import { FetchQueryError, isJoined, Source } from './fetch.schema';
import { Selected } from './fetch.select';

/** One term of the ORDER BY. */
export interface Ordering {
  sql: string;
  source?: Source;
  asc: boolean;
  cast: string;
  /** The output column ORDER BY can name instead of repeating the expression. */
  output?: string;
}

/**
 * Types whose JavaScript value loses what PostgreSQL stores: node-postgres reads a
 * timestamptz into a Date, in milliseconds, while `now()` stores microseconds. Their
 * hidden ORDER BY copies travel as text, so a cursor names the exact last value.
 */
const EXACT_AS_TEXT = new Set(['timestamptz']);

/** The value of an ordering as its hidden copy in the select list carries it. */
export function hiddenValueSql(ordering: Ordering): string {
  return EXACT_AS_TEXT.has(ordering.cast) ? `(${ordering.sql})::text` : ordering.sql;
}

/** A hidden copy ordered as its own type again, not as the text it travels as. */
function hiddenOrderSql(ordering: Ordering, column: string): string {
  return EXACT_AS_TEXT.has(ordering.cast) ? `${column}::${ordering.cast}` : column;
}

/**
 * The root's ORDER BY: a name is a result key (an alias, a root column's property) or
 * a property of the root; then each joined link's own ORDER BY, in link order.
 */
export function orderingsOf(c: Compilation, selected: Selected[], aggregated: boolean): Ordering[] {
  const { root } = c.resolved;
  const orderings: Ordering[] = [];
  for (const order of c.query.orderBy ?? []) {
    const asc = order.asc === true;
    const output = selected.find((s) => s.key === order.name);
    if (output) {
      orderings.push({
        sql: output.sql,
        source: output.aggregated ? undefined : output.source,
        asc,
        cast: output.cast,
        output: quoteIdentifier(output.name),
      });
    } else if (aggregated) {
      throw new FetchQueryError(
        `cannot ORDER BY "${order.name}": an aggregate query orders by its selected columns and aliases`,
      );
    } else {
      const property = c.resolved.property(root, order.name);
      orderings.push({
        sql: columnSql({ source: root, property }),
        source: root,
        asc,
        cast: property.castType,
      });
    }
  }
  for (const source of c.resolved.sources) {
    if (source === root || !source.node.orderBy || !isJoined(source)) continue;
    if (aggregated) {
      throw new FetchQueryError(
        `link ${source.name}: an aggregate query is ordered by the root's ORDER BY only`,
      );
    }
    for (const order of source.node.orderBy) {
      const property = c.resolved.property(source, order.name);
      orderings.push({
        sql: columnSql({ source, property }),
        source,
        asc: order.asc === true,
        cast: property.castType,
      });
    }
  }
  return orderings;
}

/**
 * Keyset paging needs a total order: no aggregates, no link that can bring several rows
 * per root row (every joined link reaches its entity's key), and the root's key last,
 * appended to `orderings` when the ORDER BY does not end in it.
 */
export function keysetOf(
  c: Compilation,
  orderings: Ordering[],
  aggregated: boolean,
): KeysetItem[] | undefined {
  const { root, sources } = c.resolved;
  if (aggregated) return undefined;
  const toOne = sources.every(
    (s) => s === root || !isJoined(s) || (s.join!.from.name === 'key' && !s.lateral),
  );
  if (!toOne) return undefined;
  const key = `${root.alias}."key"`;
  const last = orderings[orderings.length - 1];
  if (last?.sql !== key) orderings.push({ sql: key, source: root, asc: true, cast: 'int8' });
  return orderings.map(({ sql, asc, cast }) => ({ sql, asc, cast }));
}

/**
 * The page and the count of all its query's rows (capped) in one statement: the count
 * comes back on every row, or on a row of nulls when the page is empty.
 */
export function withCount(
  c: Compilation,
  page: string,
  all: string,
  orderings: Ordering[],
): string {
  const cap = c.params.bind(c.options.limits.countCap + 1, 'int8');
  const order = orderings.map(
    (o, i) =>
      `${hiddenOrderSql(o, `p.${quoteIdentifier(HIDDEN.order(i))}`)} ${o.asc ? 'ASC' : 'DESC'}`,
  );
  return (
    `WITH page AS (SELECT *, true AS ${quoteIdentifier(HIDDEN.row)} FROM (${page}) q), ` +
    `counted AS (SELECT count(*) AS n FROM (${all} LIMIT ${cap}) c) ` +
    `SELECT p.*, counted.n AS ${quoteIdentifier(HIDDEN.total)} FROM counted LEFT JOIN page p ON true` +
    (order.length ? ` ORDER BY ${order.join(', ')}` : '')
  );
}

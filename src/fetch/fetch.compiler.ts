import { quoteIdentifier } from '../database/sql';
import { EntityRegistry } from '../model/entity.registry';
import { Compilation, CompileOptions, HIDDEN } from './fetch.compilation';
import { selectedItems } from './fetch.keys';
import { hiddenValueSql, keysetOf, Ordering, orderingsOf, withCount } from './fetch.ordering';
import { KeysetItem, keysetSql } from './fetch.paging';
import { filterSql } from './fetch.predicates';
import { FetchQueryError, isJoined, Source } from './fetch.schema';
import { ResultColumn, selectList } from './fetch.select';
import { EntityQuery, FilterGroup } from './fetch.tree';

export interface CompiledFetch {
  sql: string;
  params: unknown[];
  columns: ResultColumn[];
  /** Rows asked for: a full page may have more after it. */
  limit: number;
  /** Set when the order is total (ends in the root's key): rows can be paged by keyset. */
  keyset?: KeysetItem[];
  /**
   * The caller's columns in order: the name the SQL gives each (a short one when the key is
   * too long for PostgreSQL) and its result key. Every other column is the server's own.
   */
  output: { name: string; key: string }[];
}

/**
 * A FETCH tree as exactly one parameterised PostgreSQL statement (FETCH.md §2): links are
 * joins (LATERAL where a link pages itself, EXISTS subqueries for EXISTS links), every
 * entity limited to the rows the caller may read (its AccessScope) inside the statement,
 * identifiers only from the registry and quoted, every value bound. The select list is
 * fetch.select.ts's, the order and the count fetch.ordering.ts's.
 */
export function compileFetch(
  query: EntityQuery,
  registry: EntityRegistry,
  options: CompileOptions,
): CompiledFetch {
  const c = new Compilation(query, registry, options);
  const { root } = c.resolved;
  const selected = selectList(c);
  const aggregated =
    selected.some((s) => s.aggregated) || selectedItems(query).some((s) => s.item.groupBy);
  const where = [c.scope(root), ...optional(filterSql(query.filter, root, c.ctx))];
  const joins = joinsOf(c, root, where);
  const orderings = orderingsOf(c, selected, aggregated);
  const keyset = keysetOf(c, orderings, aggregated);
  const limit = c.limit(query.limit);
  const grouping = aggregated ? selected.filter((s) => !s.aggregated).map((s) => s.sql) : [];

  const outputs = selected.map((s) => `${s.sql} AS ${quoteIdentifier(s.name)}`);
  // Hidden copies of the ORDER BY values: they make the cursor and order the count wrap.
  const wrapped = options.count;
  if (keyset || wrapped) {
    orderings.forEach((o, i) => {
      outputs.push(`${hiddenValueSql(o)} AS ${quoteIdentifier(HIDDEN.order(i))}`);
    });
  }
  const pageWhere = [...where];
  let offset = query.offset;
  if (options.after) {
    if (!keyset) throw new FetchQueryError('X-Fetch-Cursor: this query cannot be paged by keyset');
    pageWhere.push(keysetSql(keyset, options.after, c.params));
    offset = undefined; // the cursor says where the page starts
  }
  const body = (conditions: string[]) =>
    `FROM ${c.table(root)}${joins} WHERE ${conditions.join(' AND ')}` +
    (grouping.length ? ` GROUP BY ${grouping.join(', ')}` : '');
  const orderBy = orderings.length
    ? ` ORDER BY ${orderings.map((o) => `${o.output ?? o.sql} ${o.asc ? 'ASC' : 'DESC'}`).join(', ')}`
    : '';
  const paging =
    ` LIMIT ${c.params.bind(limit, 'int8')}` +
    (offset ? ` OFFSET ${c.params.bind(offset, 'int8')}` : '');

  let sql: string;
  if (keyset && limitsFirst(c, orderings)) {
    // The page of root rows first, then their links: the joins see `limit` rows, not all.
    const rootOrder = orderings.map((o) => `${o.sql} ${o.asc ? 'ASC' : 'DESC'}`).join(', ');
    const page = `SELECT * FROM ${c.table(root)} WHERE ${pageWhere.join(' AND ')} ORDER BY ${rootOrder}${paging}`;
    sql = `SELECT ${outputs.join(', ')} FROM (${page}) ${root.alias}${joins}${orderBy}`;
  } else {
    sql = `SELECT ${outputs.join(', ')} ${body(pageWhere)}${orderBy}${paging}`;
  }
  if (wrapped) sql = withCount(c, sql, `SELECT 1 ${body(where)}`, orderings);
  return {
    sql,
    params: c.params.values,
    columns: selected.map((s) => s.column),
    limit,
    keyset,
    output: selected.map(({ name, key }) => ({ name, key })),
  };
}

/**
 * Whether the page can be cut from the root's rows before any link is joined: the
 * order is the root's own (total: the key ends it, added when not written), the root's
 * filter names none of its links, and no joined link can remove or multiply a root
 * row. A to-one OUTER link never does; an inner one does not when it follows a lookup
 * that cannot be null (a foreign key, so its row exists), has no filter and no EXISTS
 * link of its own, and its type is the caller's to read in the whole organization,
 * which holds the rows its lookups name (checked on every write that sets one through
 * the API). Only to-one, unpaged links get here (keyset).
 */
function limitsFirst(c: Compilation, orderings: Ordering[]): boolean {
  const { root, sources } = c.resolved;
  if (orderings.some((o) => o.source !== root)) return false;
  if (namesLinks(c.query.filter)) return false;
  return sources.every((source) => {
    if (source === root || !isJoined(source) || source.kind === 'outer') return true;
    const { to } = source.join!;
    return (
      to.lookup === source.type.name &&
      !to.nullable &&
      !source.node.filter?.length &&
      // An EXISTS link inside it is a condition of its join, which could drop the row.
      source.links.every((link) => link.kind !== 'exists' && link.kind !== 'not-exists') &&
      c.options.scope.depth(source.type, 'read') === 'organization'
    );
  });
}

/**
 * The joins of a source's links, in the order written; an EXISTS link becomes a
 * condition of its parent instead. A link's own links are joined inside its parentheses,
 * so an inner link under an OUTER one limits the outer link's rows, not the parent's.
 */
function joinsOf(c: Compilation, parent: Source, parentConditions: string[]): string {
  let sql = '';
  for (const link of parent.links) {
    const own = linkConditions(c, link);
    if (link.kind === 'exists' || link.kind === 'not-exists') {
      const from = `${c.table(link)}${joinsOf(c, link, own)}`;
      const not = link.kind === 'not-exists' ? 'NOT ' : '';
      parentConditions.push(`${not}EXISTS (SELECT 1 FROM ${from} WHERE ${own.join(' AND ')})`);
      continue;
    }
    const inner = joinsOf(c, link, own);
    const kind = link.kind === 'outer' ? 'LEFT JOIN' : 'INNER JOIN';
    if (link.lateral) {
      const item = `LATERAL (SELECT * FROM ${c.table(link)} WHERE ${own.join(' AND ')}${linkPaging(c, link)}) ${link.alias}`;
      sql += ` ${kind} ${inner ? `(${item}${inner})` : item} ON true`;
    } else {
      const item = c.table(link);
      sql += ` ${kind} ${inner ? `(${item}${inner})` : item} ON ${own.join(' AND ')}`;
    }
  }
  return sql;
}

/** A link's join, its organization and its own filter. */
function linkConditions(c: Compilation, link: Source): string[] {
  const { from, to } = link.join!;
  const left = `${link.alias}.${quoteIdentifier(from.name)}`;
  const right = `${link.parent!.alias}.${quoteIdentifier(to.name)}`;
  const join =
    from.castType === to.castType || from.type !== 'string'
      ? `${left} = ${right}`
      : `${left}::text = ${right}::text`;
  return [join, c.scope(link), ...optional(filterSql(link.node.filter, link, c.ctx))];
}

/** "At most n linked rows per parent row", in the link's own order. */
function linkPaging(c: Compilation, link: Source): string {
  const order = (link.node.orderBy ?? []).map(
    (o) =>
      `${link.alias}.${quoteIdentifier(c.resolved.property(link, o.name).name)} ${o.asc ? 'ASC' : 'DESC'}`,
  );
  order.push(`${link.alias}."key" ASC`);
  const { limit, offset } = link.node;
  return (
    ` ORDER BY ${order.join(', ')}` +
    (limit !== undefined ? ` LIMIT ${c.params.bind(c.limit(limit), 'int8')}` : '') +
    (offset ? ` OFFSET ${c.params.bind(offset, 'int8')}` : '')
  );
}

function optional(sql: string | undefined): string[] {
  return sql ? [sql] : [];
}

/** Whether a filter names a column of a link (`alias.property`). */
function namesLinks(groups: FilterGroup[] | undefined): boolean {
  return (groups ?? []).some(
    (group) =>
      (group.conditions ?? []).some((condition) => condition.property.includes('.')) ||
      namesLinks(group.filter),
  );
}

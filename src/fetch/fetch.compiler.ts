import { AccessScope } from '../access/access.scope';
import { quoteIdentifier, SqlParameters } from '../database/sql';
import { CAST_TYPES, PropertyType } from '../model/entity-type';
import { EntityRegistry } from '../model/entity.registry';
import { resultKey, selectedItems } from './fetch.keys';
import { KeysetItem, keysetSql } from './fetch.paging';
import { columnSql, filterSql, PredicateContext } from './fetch.predicates';
import { FetchQueryError, isJoined, ResolvedQuery, Source } from './fetch.schema';
import { Aggregate, EntityQuery, FilterGroup, PropertyItem } from './fetch.tree';

/** One column of a result (FETCH.md §5). */
export interface ResultColumn {
  name: string;
  entity: string;
  property: string;
  type: PropertyType;
  aggregate?: Aggregate;
  nullable: boolean;
}

export interface FetchLimits {
  defaultRows: number;
  maxRows: number;
  maxInList: number;
  countCap: number;
}

export interface CompileOptions {
  /** Who asks: every entity of the statement is limited to the rows it may read. */
  scope: AccessScope;
  limits: FetchLimits;
  /** Add the capped count of all rows (`X-Fetch-Count: true`). */
  count?: boolean;
  /** The ORDER BY values of the last row already sent (from `X-Fetch-Cursor`). */
  after?: unknown[];
}

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

/** Names no FETCH alias can take (not identifiers): the server's own columns. */
export const HIDDEN = {
  order: (i: number) => `#o${i}`,
  column: (i: number) => `#c${i}`,
  total: '#total',
  row: '#row',
} as const;

/** PostgreSQL cuts longer names (NAMEDATALEN - 1), which would merge two result keys. */
const MAX_NAME_BYTES = 63;

interface Selected {
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

interface Ordering {
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

function hiddenValueSql(ordering: Ordering): string {
  return EXACT_AS_TEXT.has(ordering.cast) ? `(${ordering.sql})::text` : ordering.sql;
}

/** A hidden copy ordered as its own type again, not as the text it travels as. */
function hiddenOrderSql(ordering: Ordering, column: string): string {
  return EXACT_AS_TEXT.has(ordering.cast) ? `${column}::${ordering.cast}` : column;
}

const NUMERIC: PropertyType[] = ['integer', 'bigint', 'decimal'];
const ORDERED: PropertyType[] = [...NUMERIC, 'string', 'datetime', 'date', 'boolean', 'uuid'];

/**
 * A FETCH tree as exactly one parameterised PostgreSQL statement (FETCH.md §2): links are
 * joins (LATERAL where a link pages itself, EXISTS subqueries for EXISTS links), every
 * entity limited to the rows the caller may read (its AccessScope) inside the statement,
 * identifiers only from the registry and quoted, every value bound.
 */
export function compileFetch(
  query: EntityQuery,
  registry: EntityRegistry,
  options: CompileOptions,
): CompiledFetch {
  return new FetchCompiler(query, registry, options).compile();
}

class FetchCompiler {
  private readonly resolved: ResolvedQuery;
  private readonly params = new SqlParameters();
  private readonly ctx: PredicateContext;

  constructor(
    private readonly query: EntityQuery,
    registry: EntityRegistry,
    private readonly options: CompileOptions,
  ) {
    this.resolved = new ResolvedQuery(query, registry, options.scope);
    this.ctx = {
      resolved: this.resolved,
      params: this.params,
      identity: options.scope.identity,
      maxInList: options.limits.maxInList,
    };
  }

  compile(): CompiledFetch {
    const { root } = this.resolved;
    const selected = this.select();
    const aggregated =
      selected.some((s) => s.aggregated) || selectedItems(this.query).some((s) => s.item.groupBy);
    const where = [
      this.scope(root),
      ...this.optional(filterSql(this.query.filter, root, this.ctx)),
    ];
    const joins = this.joins(root, where);
    const orderings = this.orderings(selected, aggregated);
    const keyset = this.keyset(orderings, aggregated);
    const limit = this.limit(this.query.limit);
    const grouping = aggregated ? selected.filter((s) => !s.aggregated).map((s) => s.sql) : [];

    const outputs = selected.map((s) => `${s.sql} AS ${quoteIdentifier(s.name)}`);
    // Hidden copies of the ORDER BY values: they make the cursor and order the count wrap.
    const wrapped = this.options.count;
    if (keyset || wrapped) {
      orderings.forEach((o, i) => {
        outputs.push(`${hiddenValueSql(o)} AS ${quoteIdentifier(HIDDEN.order(i))}`);
      });
    }
    const pageWhere = [...where];
    let offset = this.query.offset;
    if (this.options.after) {
      if (!keyset)
        throw new FetchQueryError('X-Fetch-Cursor: this query cannot be paged by keyset');
      pageWhere.push(keysetSql(keyset, this.options.after, this.params));
      offset = undefined; // the cursor says where the page starts
    }
    const body = (conditions: string[]) =>
      `FROM ${this.table(root)}${joins} WHERE ${conditions.join(' AND ')}` +
      (grouping.length ? ` GROUP BY ${grouping.join(', ')}` : '');
    const orderBy = orderings.length
      ? ` ORDER BY ${orderings.map((o) => `${o.output ?? o.sql} ${o.asc ? 'ASC' : 'DESC'}`).join(', ')}`
      : '';
    const paging =
      ` LIMIT ${this.params.bind(limit, 'int8')}` +
      (offset ? ` OFFSET ${this.params.bind(offset, 'int8')}` : '');

    let sql: string;
    if (keyset && this.limitsFirst(orderings)) {
      // The page of root rows first, then their links: the joins see `limit` rows, not all.
      const rootOrder = orderings.map((o) => `${o.sql} ${o.asc ? 'ASC' : 'DESC'}`).join(', ');
      const page = `SELECT * FROM ${this.table(root)} WHERE ${pageWhere.join(' AND ')} ORDER BY ${rootOrder}${paging}`;
      sql = `SELECT ${outputs.join(', ')} FROM (${page}) ${root.alias}${joins}${orderBy}`;
    } else {
      sql = `SELECT ${outputs.join(', ')} ${body(pageWhere)}${orderBy}${paging}`;
    }
    if (wrapped) {
      sql = this.withCount(sql, `SELECT 1 ${body(where)}`, orderings);
    }
    return {
      sql,
      params: this.params.values,
      columns: selected.map((s) => s.column),
      limit,
      keyset,
      output: selected.map(({ name, key }) => ({ name, key })),
    };
  }

  /** The select list: every source's items, the root's first, as FETCH.md §2 keys them. */
  private select(): Selected[] {
    const byNode = new Map(this.resolved.sources.map((s) => [s.node, s]));
    const selected: Omit<Selected, 'name'>[] = [];
    for (const entry of selectedItems(this.query)) {
      const source = byNode.get(entry.link ?? this.query)!;
      const prefix = source === this.resolved.root ? '' : `${source.name}.`;
      if (entry.item.property === '*' && !entry.item.aggregate) {
        for (const property of source.type.properties.values()) {
          // `*` is what the caller may see: no credentials, no secured property it may not read.
          if (property.hidden || !this.options.scope.canRead(source.type, property)) continue;
          const column = this.resultColumn(source, property.name, property.type);
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
        selected.push(this.item(entry.item, source, resultKey(entry)!));
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

  private item(item: PropertyItem, context: Source, key: string): Omit<Selected, 'name'> {
    const { aggregate, dateGrouping } = item;
    if (aggregate === 'count') {
      const column = this.resultColumn(context, '*', 'bigint', aggregate);
      return { key, sql: 'count(*)', column, aggregated: true, cast: 'int8' };
    }
    const reference = this.resolved.column(item.property, context);
    const { property, source } = reference;
    let sql = columnSql(reference);
    if (dateGrouping) {
      if (property.type !== 'datetime' && property.type !== 'date') {
        throw new FetchQueryError(
          `${item.property}: ${dateGrouping.toUpperCase()}() groups dates, not a ${property.type}`,
        );
      }
      const instant = property.type === 'date' ? `${sql}::timestamp` : `${sql} AT TIME ZONE 'UTC'`;
      sql = `(date_trunc('${dateGrouping}', ${instant}) AT TIME ZONE 'UTC')`;
      const column = this.resultColumn(source, property.name, 'datetime');
      column.nullable ||= property.nullable;
      return { key, source, sql, column, aggregated: false, cast: 'timestamptz' };
    }
    if (!aggregate) {
      const column = this.resultColumn(source, property.name, property.type);
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
    const type: PropertyType =
      aggregate === 'countcolumn'
        ? 'bigint'
        : aggregate === 'avg' || (aggregate === 'sum' && property.type !== 'integer')
          ? 'decimal'
          : aggregate === 'sum'
            ? 'bigint'
            : property.type;
    const column = this.resultColumn(source, property.name, type, aggregate);
    column.nullable = aggregate !== 'countcolumn';
    return { key, sql, column, aggregated: true, cast: CAST_TYPES[type] };
  }

  private resultColumn(
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
  private limitsFirst(orderings: Ordering[]): boolean {
    const { root, sources } = this.resolved;
    if (orderings.some((o) => o.source !== root)) return false;
    if (namesLinks(this.query.filter)) return false;
    return sources.every((source) => {
      if (source === root || !isJoined(source) || source.kind === 'outer') return true;
      const { to } = source.join!;
      return (
        to.lookup === source.type.name &&
        !to.nullable &&
        !source.node.filter?.length &&
        // An EXISTS link inside it is a condition of its join, which could drop the row.
        source.links.every((link) => link.kind !== 'exists' && link.kind !== 'not-exists') &&
        this.options.scope.depth(source.type, 'read') === 'organization'
      );
    });
  }

  /** The root (or an EXISTS link's subquery) and the links joined to it. */
  private from(source: Source, conditions: string[]): string {
    return `${this.table(source)}${this.joins(source, conditions)}`;
  }

  /**
   * The joins of a source's links, in the order written; an EXISTS link becomes a
   * condition of its parent instead. A link's own links are joined inside its parentheses,
   * so an inner link under an OUTER one limits the outer link's rows, not the parent's.
   */
  private joins(parent: Source, parentConditions: string[]): string {
    let sql = '';
    for (const link of parent.links) {
      const own = this.linkConditions(link);
      if (link.kind === 'exists' || link.kind === 'not-exists') {
        const from = this.from(link, own);
        const not = link.kind === 'not-exists' ? 'NOT ' : '';
        parentConditions.push(`${not}EXISTS (SELECT 1 FROM ${from} WHERE ${own.join(' AND ')})`);
        continue;
      }
      const inner = this.joins(link, own);
      const kind = link.kind === 'outer' ? 'LEFT JOIN' : 'INNER JOIN';
      if (link.lateral) {
        const item = `LATERAL (SELECT * FROM ${this.table(link)} WHERE ${own.join(' AND ')}${this.linkPaging(link)}) ${link.alias}`;
        sql += ` ${kind} ${inner ? `(${item}${inner})` : item} ON true`;
      } else {
        const item = this.table(link);
        sql += ` ${kind} ${inner ? `(${item}${inner})` : item} ON ${own.join(' AND ')}`;
      }
    }
    return sql;
  }

  /** A link's join, its organization and its own filter. */
  private linkConditions(link: Source): string[] {
    const { from, to } = link.join!;
    const left = `${link.alias}.${quoteIdentifier(from.name)}`;
    const right = `${link.parent!.alias}.${quoteIdentifier(to.name)}`;
    const join =
      from.castType === to.castType || from.type !== 'string'
        ? `${left} = ${right}`
        : `${left}::text = ${right}::text`;
    return [join, this.scope(link), ...this.optional(filterSql(link.node.filter, link, this.ctx))];
  }

  /** "At most n linked rows per parent row", in the link's own order. */
  private linkPaging(link: Source): string {
    const order = (link.node.orderBy ?? []).map(
      (o) =>
        `${link.alias}.${quoteIdentifier(this.resolved.property(link, o.name).name)} ${o.asc ? 'ASC' : 'DESC'}`,
    );
    order.push(`${link.alias}."key" ASC`);
    const { limit, offset } = link.node;
    return (
      ` ORDER BY ${order.join(', ')}` +
      (limit !== undefined ? ` LIMIT ${this.params.bind(this.limit(limit), 'int8')}` : '') +
      (offset ? ` OFFSET ${this.params.bind(offset, 'int8')}` : '')
    );
  }

  private table(source: Source): string {
    return `${quoteIdentifier(source.type.name)} ${source.alias}`;
  }

  private scope(source: Source): string {
    return this.options.scope.rows(source.type, 'read', source.alias, this.params);
  }

  private optional(sql: string | undefined): string[] {
    return sql ? [sql] : [];
  }

  /**
   * The root's ORDER BY: a name is a result key (an alias, a root column's property) or
   * a property of the root; then each joined link's own ORDER BY, in link order.
   */
  private orderings(selected: Selected[], aggregated: boolean): Ordering[] {
    const { root } = this.resolved;
    const orderings: Ordering[] = [];
    for (const order of this.query.orderBy ?? []) {
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
        const property = this.resolved.property(root, order.name);
        orderings.push({
          sql: columnSql({ source: root, property }),
          source: root,
          asc,
          cast: property.castType,
        });
      }
    }
    for (const source of this.resolved.sources) {
      if (source === root || !source.node.orderBy || !isJoined(source)) continue;
      if (aggregated) {
        throw new FetchQueryError(
          `link ${source.name}: an aggregate query is ordered by the root's ORDER BY only`,
        );
      }
      for (const order of source.node.orderBy) {
        const property = this.resolved.property(source, order.name);
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
   * appended when the ORDER BY does not end in it.
   */
  private keyset(orderings: Ordering[], aggregated: boolean): KeysetItem[] | undefined {
    const { root, sources } = this.resolved;
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

  private limit(value: number | undefined): number {
    const { defaultRows, maxRows } = this.options.limits;
    if (value === undefined) return defaultRows;
    if (value > maxRows) {
      throw new FetchQueryError(`LIMIT ${value} is above this server's maximum of ${maxRows} rows`);
    }
    return value;
  }

  /**
   * The page and the count of all its query's rows (capped) in one statement: the count
   * comes back on every row, or on a row of nulls when the page is empty.
   */
  private withCount(page: string, all: string, orderings: Ordering[]): string {
    const cap = this.params.bind(this.options.limits.countCap + 1, 'int8');
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
}

/** Whether a filter names a column of a link (`alias.property`). */
function namesLinks(groups: FilterGroup[] | undefined): boolean {
  return (groups ?? []).some(
    (group) =>
      (group.conditions ?? []).some((condition) => condition.property.includes('.')) ||
      namesLinks(group.filter),
  );
}

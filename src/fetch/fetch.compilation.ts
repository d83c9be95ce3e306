import { AccessScope } from '../access/access.scope';
import { quoteIdentifier, SqlParameters } from '../database/sql';
import { EntityRegistry } from '../model/entity.registry';
import { PredicateContext } from './fetch.predicates';
import { FetchQueryError, ResolvedQuery, Source } from './fetch.schema';
import { EntityQuery } from './fetch.tree';

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

/** Names no FETCH alias can take (not identifiers): the server's own columns. */
export const HIDDEN = {
  order: (i: number) => `#o${i}`,
  column: (i: number) => `#c${i}`,
  total: '#total',
  row: '#row',
} as const;

/**
 * One query being compiled: its tree resolved against the registry and the caller, the
 * statement's parameters, and what every part of the statement asks of them.
 */
export class Compilation {
  readonly resolved: ResolvedQuery;
  readonly params = new SqlParameters();
  readonly ctx: PredicateContext;

  constructor(
    readonly query: EntityQuery,
    registry: EntityRegistry,
    readonly options: CompileOptions,
  ) {
    this.resolved = new ResolvedQuery(query, registry, options.scope);
    this.ctx = {
      resolved: this.resolved,
      params: this.params,
      identity: options.scope.identity,
      maxInList: options.limits.maxInList,
    };
  }

  table(source: Source): string {
    return `${quoteIdentifier(source.type.name)} ${source.alias}`;
  }

  /** The rows of `source` the caller may read. */
  scope(source: Source): string {
    return this.options.scope.rows(source.type, 'read', source.alias, this.params);
  }

  /** A LIMIT as asked (the default without one), refused above the maximum. */
  limit(value: number | undefined): number {
    const { defaultRows, maxRows } = this.options.limits;
    if (value === undefined) return defaultRows;
    if (value > maxRows) {
      throw new FetchQueryError(`LIMIT ${value} is above this server's maximum of ${maxRows} rows`);
    }
    return value;
  }
}

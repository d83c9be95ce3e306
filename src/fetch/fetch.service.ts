import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { LRUCache } from 'lru-cache';
import { AccessScope } from '../access/access.scope';
import { AccessService } from '../access/access.service';
import { Identity } from '../common/identity';
import { Environment } from '../config/environment';
import { Transaction } from '../database/transaction';
import { EntityRegistry } from '../model/entity.registry';
import { FetchLimits, HIDDEN } from './fetch.compilation';
import { CompiledFetch, compileFetch } from './fetch.compiler';
import { FetchSyntaxError } from './fetch.errors';
import { FetchExecutor } from './fetch.executor';
import { FetchSyntaxException } from './fetch.exceptions';
import { queryFromJson } from './fetch.json';
import { cursorBinding, FetchCursors } from './fetch.paging';
import { parseFetch } from './fetch.parser';
import { printFetch } from './fetch.printer';
import { ResultColumn } from './fetch.select';
import { EntityQuery, FetchDocument } from './fetch.tree';
import { FetchLimits as DepthLimits, FETCH_LIMITS } from './fetch.validation';

/** A query as it arrives: FETCH text, or the JSON tree (FETCH.md §4). */
export type FetchInput = { text: string } | { json: unknown };

export interface FetchOptions {
  /** `X-Fetch-Cursor`: the page after the one that cursor ended. */
  cursor?: string;
  /** `X-Fetch-Count: true`. */
  count?: boolean;
  /** A transaction to run in (a workflow's), instead of a connection of the pool. */
  transaction?: Transaction;
}

export interface FetchResult {
  rows: Record<string, unknown>[];
  /** `X-Fetch-Next`, when the page is full and the order allows keyset paging. */
  next?: string;
  /** `X-Total-Count`: the count, or `<cap>+` beyond the cap. */
  total?: string;
  /** Milliseconds spent reading and compiling the query, and running it. */
  timing: { compile: number; database: number };
}

/** A query read once: its tree, and its canonical text the first time a cursor needs it. */
interface ReadQuery {
  query: EntityQuery;
  canonical?: string;
}

/** How many distinct FETCH texts keep their tree: an application sends a few hundred. */
const PARSED_TEXTS = 500;

/** The FETCH endpoints: parse, run (one statement), and describe a result's columns. */
@Injectable()
export class FetchService {
  /**
   * Trees by FETCH text: an application sends the same texts again and again, and a tree
   * depends on nothing but its text (never on the caller, who is applied in compiling).
   * Trees are never changed once made, so one serves every request.
   */
  private readonly parsed = new LRUCache<string, ReadQuery>({ max: PARSED_TEXTS });
  private readonly limits: FetchLimits;
  private readonly depth: DepthLimits;

  constructor(
    private readonly registry: EntityRegistry,
    private readonly cursors: FetchCursors,
    private readonly executor: FetchExecutor,
    private readonly access: AccessService,
    config: ConfigService<Environment, true>,
  ) {
    const get = <K extends keyof Environment>(key: K) => config.get(key, { infer: true });
    this.limits = {
      defaultRows: get('FETCH_DEFAULT_ROWS'),
      maxRows: get('FETCH_MAX_ROWS'),
      maxInList: get('FETCH_MAX_IN_LIST'),
      countCap: get('FETCH_COUNT_CAP'),
    };
    this.depth = { ...FETCH_LIMITS, linkDepth: get('FETCH_MAX_LINK_DEPTH') };
  }

  /** `POST /rest/fetch/parse`: the JSON tree of a FETCH text (spec 2.6). */
  parse(text: string): FetchDocument {
    return { fetch: [this.read({ text }).query] };
  }

  /** `POST /rest/metadata/fetch`: the columns the query would produce; nothing runs. */
  async metadata(identity: Identity, input: FetchInput): Promise<{ columns: ResultColumn[] }> {
    const { query } = this.read(input);
    const scope = await this.access.scopeOf(identity);
    return { columns: this.compile(query, scope, {}).columns };
  }

  /** `POST /rest/fetch`: the rows of one page, in one statement. */
  async run(identity: Identity, input: FetchInput, options: FetchOptions): Promise<FetchResult> {
    const started = performance.now();
    const read = this.read(input);
    const { query } = read;
    const scope = await this.access.scopeOf(identity);
    // Hashed at most once: a page both opens a cursor and signs the next.
    let bound: string | undefined;
    const binding = () =>
      (bound ??= cursorBinding((read.canonical ??= printFetch(query)), identity.userKey));
    const after =
      options.cursor !== undefined ? await this.cursors.open(binding(), options.cursor) : undefined;
    const compiled = this.compile(query, scope, { count: options.count, after });
    const compiledAt = performance.now();
    const raw = await this.executor.run(compiled, identity.userKey, options.transaction);
    const result: FetchResult = {
      rows: raw,
      timing: { compile: compiledAt - started, database: performance.now() - compiledAt },
    };
    if (options.count) {
      const total = Number(raw[0][HIDDEN.total]);
      const cap = this.limits.countCap;
      result.total = total > cap ? `${cap}+` : String(total);
      if (raw[0][HIDDEN.row] === null) result.rows = [];
    }
    const last = result.rows[result.rows.length - 1];
    if (compiled.keyset && last && result.rows.length === compiled.limit) {
      const values = compiled.keyset.map((_, i) => last[HIDDEN.order(i)]);
      result.next = await this.cursors.sign(binding(), values);
    }
    // Built afresh rather than `delete`d from: the server's columns go, long keys get
    // their names back, and the rows keep one shape, which serializes faster.
    const { output } = compiled;
    result.rows = result.rows.map((row) => {
      const shaped: Record<string, unknown> = {};
      for (const { name, key } of output) shaped[key] = row[name];
      return shaped;
    });
    return result;
  }

  /** The tree of a FETCH text or JSON tree; a syntax error becomes a 400 with its position. */
  private read(input: FetchInput): ReadQuery {
    if ('json' in input) return { query: queryFromJson(input.json, this.depth) };
    let read = this.parsed.get(input.text);
    if (!read) {
      try {
        read = { query: parseFetch(input.text, this.depth) };
      } catch (error) {
        if (error instanceof FetchSyntaxError) throw new FetchSyntaxException(error);
        throw error;
      }
      this.parsed.set(input.text, read);
    }
    return read;
  }

  private compile(
    query: EntityQuery,
    scope: AccessScope,
    options: { count?: boolean; after?: unknown[] },
  ): CompiledFetch {
    return compileFetch(query, this.registry, { scope, limits: this.limits, ...options });
  }
}

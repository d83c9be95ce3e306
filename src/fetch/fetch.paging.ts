import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { createHash, createHmac } from 'node:crypto';
import { safeEqual } from '../common/secrets';
import { ServerSecrets } from '../database/server-secrets.service';
import { SqlParameters } from '../database/sql';
import { FetchQueryError } from './fetch.schema';

/** One ORDER BY item of a keyset: its expression, direction and type for binding. */
export interface KeysetItem {
  sql: string;
  asc: boolean;
  cast: string;
}

const MAC_BYTES = 18;
const SECRET_NAME = 'fetch-cursor';

/**
 * The opaque cursors of FETCH.md §2 paging: the last row's ORDER BY values, signed with
 * a server secret and bound to the query (its canonical text) and the caller, so a
 * cursor is useless with another query or in other hands. Signed, not encrypted: it only
 * carries values of a row its holder has already been given.
 */
@Injectable()
export class FetchCursors implements OnApplicationBootstrap {
  constructor(private readonly secrets: ServerSecrets) {}

  /** The key is read (or made) at boot, not by the first request that pages. */
  async onApplicationBootstrap(): Promise<void> {
    await this.secrets.get(SECRET_NAME);
  }

  async sign(binding: string, values: unknown[]): Promise<string> {
    const payload = Buffer.from(JSON.stringify(values)).toString('base64url');
    return `${payload}.${await this.mac(binding, payload)}`;
  }

  /** The values a cursor carries; 400 when it was not made for this query and caller. */
  async open(binding: string, cursor: string): Promise<unknown[]> {
    const [payload, mac, extra] = cursor.split('.');
    // Compared as text: base64 decoding would forgive a changed last character.
    if (extra !== undefined || !safeEqual(mac ?? '', await this.mac(binding, payload ?? ''))) {
      throw new FetchQueryError('X-Fetch-Cursor was not made for this query: send the same query');
    }
    const values: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString());
    if (!Array.isArray(values)) throw new FetchQueryError('X-Fetch-Cursor does not fit this query');
    return values as unknown[];
  }

  private async mac(binding: string, payload: string): Promise<string> {
    const secret = await this.secrets.get(SECRET_NAME);
    return createHmac('sha256', secret)
      .update(`${binding}\n${payload}`)
      .digest()
      .subarray(0, MAC_BYTES)
      .toString('base64url');
  }
}

/** What a cursor is bound to: the query as canonical text, and who asked. */
export function cursorBinding(canonicalText: string, userKey: number): string {
  return createHash('sha256').update(`${userKey}\n${canonicalText}`).digest('base64url');
}

/**
 * The rows after `values` in the order of `items`, as PostgreSQL sorts them (ASC puts
 * NULLs last, DESC first): for some i, the items before i are equal and item i is after.
 * The last item is the root's key, never NULL, so the order is total.
 */
export function keysetSql(items: KeysetItem[], values: unknown[], params: SqlParameters): string {
  const bound = values.map((value, i) =>
    value === null ? null : params.bind(value, items[i].cast),
  );
  const equal = (i: number) =>
    bound[i] === null ? `${items[i].sql} IS NULL` : `${items[i].sql} = ${bound[i]}`;
  const after = (i: number) => {
    const { sql, asc } = items[i];
    if (bound[i] === null) return asc ? 'false' : `${sql} IS NOT NULL`;
    return asc ? `(${sql} > ${bound[i]} OR ${sql} IS NULL)` : `${sql} < ${bound[i]}`;
  };
  const alternatives = items.map((_, i) =>
    [...items.slice(0, i).map((__, j) => equal(j)), after(i)].join(' AND '),
  );
  return `(${alternatives.map((a) => `(${a})`).join(' OR ')})`;
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Tenant } from '../access/access.tenant';
import { AccessScope } from '../access/access.scope';
import { Action } from '../access/access.depth';
import { quoteIdentifier as quote, SqlParameters } from '../database/sql';
import { Transaction } from '../database/transaction';
import { sendStatement } from '../database/statements';
import { EntityType } from '../model/entity-type';
import { Owner } from '../model/owner';

/** Rows that must exist for the caller: per type, the distinct keys of the rows. */
export interface LookupGuard {
  scope: AccessScope;
  targets: { type: EntityType; keys: number[] }[];
}

/** What a write answers: the keys of its rows, or the rows as the API shows them. */
export type Returning = 'key' | 'row';

export interface ChildRow {
  key: number;
  properties: Record<string, unknown>;
}

/**
 * Every SQL statement of the entity engine, built from the registry's identifiers
 * (quoted) with every value bound. Each one that reads or changes rows takes the caller's
 * AccessScope and is limited by its condition for the action (tenancy included), so no
 * entity type can forget either.
 */
@Injectable()
export class EntityStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** One row by key, with the columns the API shows. */
  async findOne(
    tx: Transaction | undefined,
    type: EntityType,
    key: number,
    scope: AccessScope,
    lock = false,
  ): Promise<Record<string, unknown> | undefined> {
    const params = new SqlParameters();
    const rows = await this.rows<Record<string, unknown>>(
      tx,
      `SELECT ${selectList(type)} FROM ${quote(type.name)} t
        WHERE t.key = ${params.bind(key, 'int8')} AND ${scope.rows(type, 'read', 't', params)}${lock ? ' FOR UPDATE' : ''}`,
      params.values,
    );
    return rows[0] ? normalise(type, rows[0]) : undefined;
  }

  /** The children of several parents in one statement, in key order. */
  async findChildren(
    tx: Transaction | undefined,
    type: EntityType,
    parentColumn: string,
    parentKeys: number[],
    scope: AccessScope,
  ): Promise<Record<string, unknown>[]> {
    if (parentKeys.length === 0) return [];
    const params = new SqlParameters();
    const rows = await this.rows<Record<string, unknown>>(
      tx,
      `SELECT ${selectList(type)} FROM ${quote(type.name)} t
        WHERE t.${quote(parentColumn)} = ANY(${params.bind(parentKeys, 'int8[]')})
          AND ${scope.rows(type, 'read', 't', params)} ORDER BY t.key`,
      params.values,
    );
    return rows.map((row) => normalise(type, row));
  }

  /**
   * Inserts rows of one type with one multi-row statement; returns their keys in order.
   * Keys are drawn first when asked, so that children of these rows can refer to them.
   * With `lookups`, the rows go in only if every key they name is of a row the caller may
   * read, checked by the same statement (no rows and no keys otherwise): the lookups of a
   * new record cost no round trip of their own.
   */
  async insert(
    tx: Transaction,
    type: EntityType,
    rows: Record<string, unknown>[],
    tenant: Tenant,
    /** The unit and user the rows belong to; their organization is the tenant's. */
    owner: Owner,
    lookups?: LookupGuard,
    returning: Returning = 'key',
  ): Promise<Record<string, unknown>[]> {
    if (rows.length === 0) return [];
    const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))].filter((c) =>
      type.properties.has(c),
    );
    const params = new SqlParameters();
    // Typed when the rows pass through a SELECT, where no column gives a parameter its type.
    const bind = (value: unknown, cast: string) => params.bind(value, lookups && cast);
    const tuples = rows.map((row) => {
      const cells = columns.map((c) => (c in row ? bind(row[c], sqlTypeOf(type, c)) : 'DEFAULT'));
      const owners = [tenant.organizationKey, owner.businessUnitKey, owner.userKey];
      return `(${[...cells, ...owners.map((key) => bind(key, 'int8'))].join(', ')})`;
    });
    const names = [...columns, 'id_organization', 'id_business_unit', 'id_user'].map(quote);
    let source = `VALUES ${tuples.join(', ')}`;
    if (lookups) {
      // A row that leaves a column out (DEFAULT) cannot pass through the SELECT: guarded
      // rows set the same columns, as a record's own single row does.
      const readable = lookups.targets.map(
        ({ type: target, keys }) =>
          `(SELECT count(*) FROM ${quote(target.name)} t
             WHERE ${readableRows(target, keys, lookups.scope, params)}) = ${params.bind(keys.length, 'int8')}`,
      );
      source = `SELECT * FROM (${source}) v WHERE ${readable.join(' AND ')}`;
    }
    const inserted = await this.write<Record<string, unknown>>(
      tx,
      `INSERT INTO ${quote(type.name)} (${names.join(', ')}) ${source}
       RETURNING ${returning === 'row' ? selectList(type) : 'key'}`,
      params.values,
    );
    return returning === 'row' ? inserted.map((row) => normalise(type, row)) : inserted;
  }

  /** Keys for rows about to be inserted, drawn in one statement. */
  async drawKeys(tx: Transaction, type: EntityType, count: number): Promise<number[]> {
    const rows = await this.rows<{ key: number }>(
      tx,
      `SELECT nextval(pg_get_serial_sequence($1, 'key')) AS key FROM generate_series(1, $2)`,
      [quote(type.name), count],
    );
    return rows.map((row) => row.key);
  }

  /**
   * Updates several rows of one type in one statement. A row changes only the columns it
   * names; `date_updated` moves on every row touched. With `returning: 'row'`, the rows
   * as they now are (for the change log), else none.
   */
  async update(
    tx: Transaction,
    type: EntityType,
    rows: ChildRow[],
    scope: AccessScope,
    returning?: Returning,
  ): Promise<Record<string, unknown>[]> {
    if (rows.length === 0) return [];
    const columns = [...new Set(rows.flatMap((row) => Object.keys(row.properties)))].filter(
      (c) => type.properties.has(c) && c !== 'key',
    );
    const params = new SqlParameters();
    const bind = (value: unknown, sqlType: string) => params.bind(value, sqlType);
    const tuples = rows.map((row) => {
      const cells = columns.flatMap((c) => [
        bind(c in row.properties ? row.properties[c] : null, sqlTypeOf(type, c)),
        bind(c in row.properties, 'bool'),
      ]);
      return `(${[bind(row.key, 'int8'), ...cells].join(', ')})`;
    });
    const aliases = columns.flatMap((_, i) => [`v${i}`, `s${i}`]);
    const assignments = columns.map(
      (c, i) => `${quote(c)} = CASE WHEN s${i} THEN v${i} ELSE t.${quote(c)} END`,
    );
    const updated = await this.write<Record<string, unknown>>(
      tx,
      `UPDATE ${quote(type.name)} t
          SET ${[...assignments, 'date_updated = now()'].join(', ')}
         FROM (VALUES ${tuples.join(', ')}) AS v(key${aliases.map((a) => `, ${a}`).join('')})
        WHERE t.key = v.key AND ${scope.rows(type, 'write', 't', params)}${returning === 'row' ? ` RETURNING ${selectList(type, 't.')}` : ''}`,
      params.values,
    );
    return updated.map((row) => normalise(type, row));
  }

  /**
   * Deletes rows: a record (`delete`), or children its parent's update leaves out
   * (`write`: changing a child group is writing the parent).
   */
  async delete(
    tx: Transaction,
    type: EntityType,
    keys: number[],
    scope: AccessScope,
    action: Extract<Action, 'delete' | 'write'>,
  ): Promise<void> {
    if (keys.length === 0) return;
    const params = new SqlParameters();
    await this.write(
      tx,
      `DELETE FROM ${quote(type.name)} t
        WHERE t.key = ANY(${params.bind(keys, 'int8[]')}) AND ${scope.rows(type, action, 't', params)}`,
      params.values,
    );
  }

  /** Gives rows of one type (a record, or its children) to another owner. */
  async assign(
    tx: Transaction,
    type: EntityType,
    keys: number[],
    owner: Owner,
    scope: AccessScope,
  ): Promise<void> {
    if (keys.length === 0) return;
    const params = new SqlParameters();
    await this.write(
      tx,
      `UPDATE ${quote(type.name)} t
          SET id_user = ${params.bind(owner.userKey, 'int8')},
              id_business_unit = ${params.bind(owner.businessUnitKey, 'int8')},
              date_updated = now()
        WHERE t.key = ANY(${params.bind(keys, 'int8[]')}) AND ${scope.rows(type, 'write', 't', params)}`,
      params.values,
    );
  }

  /** The keys among `keys` of rows the caller may read (a lookup may point only at those). */
  async readableKeys(
    tx: Transaction | undefined,
    type: EntityType,
    keys: number[],
    scope: AccessScope,
  ): Promise<Set<number>> {
    const params = new SqlParameters();
    const rows = await this.rows<{ key: number }>(
      tx,
      `SELECT t.key FROM ${quote(type.name)} t WHERE ${readableRows(type, keys, scope, params)}`,
      params.values,
    );
    return new Set(rows.map((row) => row.key));
  }

  /**
   * The rows of a read, inside `tx` or outside any on a pooled connection: prepared, as
   * its text depends only on the type and the scope's shape.
   */
  private async rows<T>(
    tx: Transaction | undefined,
    text: string,
    values: unknown[],
  ): Promise<T[]> {
    return (await sendStatement<T>(this.dataSource, tx, text, values, 'fixed')).rows;
  }

  /** A write's RETURNING rows: prepared too, one text per count of rows and columns. */
  private async write<T>(tx: Transaction, text: string, values: unknown[]): Promise<T[]> {
    return (await sendStatement<T>(this.dataSource, tx, text, values, 'growing')).rows;
  }
}

/** The rows under alias `t` among `keys` that the caller may read. */
function readableRows(
  type: EntityType,
  keys: number[],
  scope: AccessScope,
  params: SqlParameters,
): string {
  return `t.key = ANY(${params.bind(keys, 'int8[]')}) AND ${scope.rows(type, 'read', 't', params)}`;
}

function selectList(type: EntityType, alias = ''): string {
  return [...type.properties.values()]
    .filter((p) => !p.hidden)
    .map((p) => `${alias}${quote(p.name)}`)
    .join(', ');
}

function sqlTypeOf(type: EntityType, column: string): string {
  return type.properties.get(column)!.castType;
}

/** Timestamps leave as ISO 8601 text, the form clients send and hooks compare. */
function normalise(type: EntityType, row: Record<string, unknown>): Record<string, unknown> {
  for (const name of type.dateColumns) {
    const value = row[name];
    if (value instanceof Date) row[name] = value.toISOString();
  }
  return row;
}

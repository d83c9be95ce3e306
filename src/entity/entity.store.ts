import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Identity } from '../common/identity';
import { quoteIdentifier as quote, SqlParameters } from '../database/sql';
import { EntityType } from './entity-type';

/** The caller's organization: every statement here is limited to it. */
export interface Scope {
  organizationKey: number;
}

export interface ChildRow {
  key: number;
  properties: Record<string, unknown>;
}

/**
 * Every SQL statement of the entity engine, built from the registry's identifiers
 * (quoted) with every value bound. Each one is limited to the caller's organization, so
 * no entity type can forget tenancy.
 */
@Injectable()
export class EntityStore {
  /** One row by key, with the columns the API shows. */
  async findOne(
    manager: EntityManager,
    type: EntityType,
    key: number,
    scope: Scope,
    lock = false,
  ): Promise<Record<string, unknown> | undefined> {
    const rows = await manager.query(
      `SELECT ${selectList(type)} FROM ${quote(type.name)}
        WHERE key = $1 AND id_organization = $2${lock ? ' FOR UPDATE' : ''}`,
      [key, scope.organizationKey],
    );
    return rows[0] ? normalise(rows[0]) : undefined;
  }

  /** The children of several parents in one statement, in key order. */
  async findChildren(
    manager: EntityManager,
    type: EntityType,
    parentColumn: string,
    parentKeys: number[],
    scope: Scope,
  ): Promise<Record<string, unknown>[]> {
    if (parentKeys.length === 0) return [];
    const rows = await manager.query(
      `SELECT ${selectList(type)} FROM ${quote(type.name)}
        WHERE ${quote(parentColumn)} = ANY($1::int8[]) AND id_organization = $2 ORDER BY key`,
      [parentKeys, scope.organizationKey],
    );
    return rows.map(normalise);
  }

  /**
   * Inserts rows of one type with one multi-row statement; returns their keys in order.
   * Keys are drawn first when asked, so that children of these rows can refer to them.
   */
  async insert(
    manager: EntityManager,
    type: EntityType,
    rows: Record<string, unknown>[],
    owner: Identity,
  ): Promise<number[]> {
    if (rows.length === 0) return [];
    const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))].filter((c) =>
      type.properties.has(c),
    );
    const params = new SqlParameters();
    const bind = (value: unknown) => params.bind(value);
    const tuples = rows.map((row) => {
      const cells = columns.map((c) => (c in row ? bind(row[c]) : 'DEFAULT'));
      return `(${[...cells, bind(owner.organizationKey), bind(owner.businessUnitKey), bind(owner.userKey)].join(', ')})`;
    });
    const inserted: { key: number }[] = await manager.query(
      `INSERT INTO ${quote(type.name)}
         (${[...columns, 'id_organization', 'id_business_unit', 'id_user'].map(quote).join(', ')})
       VALUES ${tuples.join(', ')} RETURNING key`,
      params.values,
    );
    return inserted.map((row) => row.key);
  }

  /** Keys for rows about to be inserted, drawn in one statement. */
  async drawKeys(manager: EntityManager, type: EntityType, count: number): Promise<number[]> {
    const rows: { key: number }[] = await manager.query(
      `SELECT nextval(pg_get_serial_sequence($1, 'key')) AS key FROM generate_series(1, $2)`,
      [quote(type.name), count],
    );
    return rows.map((row) => row.key);
  }

  /**
   * Updates several rows of one type in one statement. A row changes only the columns it
   * names; `date_updated` moves on every row touched.
   */
  async update(
    manager: EntityManager,
    type: EntityType,
    rows: ChildRow[],
    scope: Scope,
  ): Promise<void> {
    if (rows.length === 0) return;
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
    await manager.query(
      `UPDATE ${quote(type.name)} t
          SET ${[...assignments, 'date_updated = now()'].join(', ')}
         FROM (VALUES ${tuples.join(', ')}) AS v(key${aliases.map((a) => `, ${a}`).join('')})
        WHERE t.key = v.key AND t.id_organization = ${bind(scope.organizationKey, 'int8')}`,
      params.values,
    );
  }

  async delete(
    manager: EntityManager,
    type: EntityType,
    keys: number[],
    scope: Scope,
  ): Promise<void> {
    if (keys.length === 0) return;
    await manager.query(
      `DELETE FROM ${quote(type.name)} WHERE key = ANY($1::int8[]) AND id_organization = $2`,
      [keys, scope.organizationKey],
    );
  }

  /** The keys among `keys` that exist in the caller's organization. */
  async existingKeys(
    manager: EntityManager,
    type: EntityType,
    keys: number[],
    scope: Scope,
  ): Promise<Set<number>> {
    const rows: { key: number }[] = await manager.query(
      `SELECT key FROM ${quote(type.name)} WHERE key = ANY($1::int8[]) AND id_organization = $2`,
      [keys, scope.organizationKey],
    );
    return new Set(rows.map((row) => row.key));
  }

  /** Whether any row of `type` points at `key` through `column` (e.g. invoices of an account). */
  async isReferenced(
    manager: EntityManager,
    type: EntityType,
    column: string,
    key: number,
    scope: Scope,
  ): Promise<boolean> {
    const rows = await manager.query(
      `SELECT 1 FROM ${quote(type.name)} WHERE ${quote(column)} = $1 AND id_organization = $2 LIMIT 1`,
      [key, scope.organizationKey],
    );
    return rows.length > 0;
  }
}

function selectList(type: EntityType): string {
  return [...type.properties.values()]
    .filter((p) => !p.hidden)
    .map((p) => quote(p.name))
    .join(', ');
}

function sqlTypeOf(type: EntityType, column: string): string {
  return type.properties.get(column)!.castType;
}

/** Timestamps leave as ISO 8601 text, the form clients send and hooks compare. */
function normalise(row: Record<string, unknown>): Record<string, unknown> {
  for (const [name, value] of Object.entries(row)) {
    if (value instanceof Date) row[name] = value.toISOString();
  }
  return row;
}

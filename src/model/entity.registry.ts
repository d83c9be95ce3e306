import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityMetadata } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { OrmMetadata } from '../database/orm-metadata.service';
import { quoteIdentifier } from '../database/sql';
import {
  BUSINESS_ENTITY,
  BusinessEntityDefinition,
  CHILD_GROUPS,
  COMPUTED_PROPERTIES,
  labelOf,
  PROPERTY_LABELS,
  SECURED_PROPERTIES,
} from './entity.decorators';
import {
  CAST_TYPES,
  EntityType,
  PropertyDefinition,
  PropertyType,
  SYSTEM_COLUMNS,
} from './entity-type';

const COLUMN_TYPES: Record<string, PropertyType> = {
  bigint: 'bigint',
  int8: 'bigint',
  integer: 'integer',
  int: 'integer',
  int4: 'integer',
  smallint: 'integer',
  int2: 'integer',
  numeric: 'decimal',
  decimal: 'decimal',
  varchar: 'string',
  'character varying': 'string',
  text: 'string',
  char: 'string',
  character: 'string',
  boolean: 'boolean',
  bool: 'boolean',
  timestamptz: 'datetime',
  'timestamp with time zone': 'datetime',
  date: 'date',
  uuid: 'uuid',
  json: 'json',
  jsonb: 'json',
  enum: 'string',
};

/**
 * Every entity type of the API, built once at boot from TypeORM's metadata and the
 * `@BusinessEntity` / `@ChildGroup` / `@Computed` decorators. The entity API, FETCH and
 * workflows all read types from here.
 */
@Injectable()
export class EntityRegistry implements OnModuleInit {
  private readonly types = new Map<string, EntityType>();

  constructor(private readonly orm: OrmMetadata) {}

  onModuleInit(): void {
    const business = this.orm.entities().filter((m) => definitionOf(m));
    for (const metadata of business) {
      const definition = definitionOf(metadata)!;
      const properties = propertiesOf(metadata);
      const all = [...properties.values()];
      this.types.set(definition.name, {
        name: definition.name,
        label: definition.label,
        write: definition.write,
        privileges: definition.privileges,
        grantedByName: definition.grantedByName,
        writeOnly: definition.writeOnly,
        audit: definition.audit,
        assignable: definition.assignable,
        createdBy: definition.createdBy,
        securityEvent: definition.securityEvent,
        securityProperties: definition.securityProperties,
        properties,
        dateColumns: all
          .filter((p) => p.type === 'datetime' || p.type === 'date')
          .map((p) => p.name),
        securedInTree: false, // known once the child groups are linked
        childGroups: [],
        metadata,
      });
    }
    for (const type of this.types.values()) this.linkChildGroups(type);
    for (const type of this.types.values()) type.securedInTree = securedInTree(type);
  }

  find(name: string): EntityType | undefined {
    return this.types.get(name);
  }

  all(): EntityType[] {
    return [...this.types.values()];
  }

  private linkChildGroups(parent: EntityType): void {
    const childClasses =
      (Reflect.getMetadata(CHILD_GROUPS, parent.metadata.target) as (() => unknown)[]) ?? [];
    for (const childClass of childClasses) {
      const target = childClass();
      const child = this.all().find((t) => t.metadata.target === target);
      if (!child)
        throw new Error(`Child group of ${parent.name}: its class is not a @BusinessEntity`);
      // Not an owner column: a child of `user` also points at users through `id_user`.
      const relation = child.metadata.manyToOneRelations.find(
        (r) =>
          r.inverseEntityMetadata.target === parent.metadata.target &&
          !(SYSTEM_COLUMNS as readonly string[]).includes(r.joinColumns[0].databaseName),
      );
      if (!relation || relation.onDelete !== 'CASCADE') {
        throw new Error(
          `Child ${child.name} of ${parent.name} needs a @ManyToOne to ${parent.name} with onDelete: 'CASCADE'`,
        );
      }
      const column = relation.joinColumns[0].databaseName;
      const expected = parentColumnName(parent.name);
      if (column !== expected) {
        throw new Error(
          `Child ${child.name} of ${parent.name} links to it through ${column}; name the column ${expected}`,
        );
      }
      // The link to the parent is the engine's to set, like the system columns.
      const link = child.properties.get(column)!;
      link.origin = 'parent';
      link.required = false;
      child.parent = { type: parent, column };
      parent.childGroups.push({
        name: `${parent.name}_${child.name}`,
        child,
        parentColumn: column,
      });
    }
  }
}

/**
 * `id_<parent>`, or `id_parent_<parent>` where that name is an owner column every row
 * carries (a child of `user` links to it through `id_parent_user`).
 */
function parentColumnName(parent: string): string {
  const name = `id_${parent}`;
  return (SYSTEM_COLUMNS as readonly string[]).includes(name) ? `id_parent_${parent}` : name;
}

function definitionOf(metadata: EntityMetadata): BusinessEntityDefinition | undefined {
  return typeof metadata.target === 'function'
    ? (Reflect.getMetadata(BUSINESS_ENTITY, metadata.target) as BusinessEntityDefinition)
    : undefined;
}

function propertiesOf(metadata: EntityMetadata): Map<string, PropertyDefinition> {
  const namesOf = (key: string) => (Reflect.getMetadata(key, metadata.target) as string[]) ?? [];
  const computed = new Set(namesOf(COMPUTED_PROPERTIES));
  const secured = new Set(namesOf(SECURED_PROPERTIES));
  const labels =
    (Reflect.getMetadata(PROPERTY_LABELS, metadata.target) as Record<string, string>) ?? {};
  const lookups = new Map(
    metadata.manyToOneRelations.map((r) => [
      r.joinColumns[0].databaseName,
      definitionOf(r.inverseEntityMetadata)?.name,
    ]),
  );
  const properties = new Map<string, PropertyDefinition>();
  for (const column of metadata.columns) {
    const name = column.databaseName;
    if (properties.has(name)) continue;
    const type = propertyType(column, metadata);
    const origin = (SYSTEM_COLUMNS as readonly string[]).includes(name)
      ? 'system'
      : computed.has(column.propertyName)
        ? 'computed'
        : 'client';
    properties.set(name, {
      name,
      label: labels[column.propertyName] ?? labelOf(name),
      type,
      castType: castType(column, metadata, type),
      nullable: column.isNullable,
      required:
        origin === 'client' &&
        !column.isNullable &&
        column.default === undefined &&
        !column.isGenerated,
      origin,
      hidden: !column.isSelect,
      secured: secured.has(column.propertyName),
      length: column.length ? Number(column.length) : undefined,
      precision: column.precision ?? undefined,
      scale: column.scale ?? undefined,
      values: column.enum?.map(String),
      lookup: lookups.get(name),
      defaultValue: origin === 'client' ? constantDefault(column, type) : undefined,
    });
  }
  return properties;
}

/** A column's default when it is a value, as the API writes it (decimals as text); not SQL. */
function constantDefault(
  column: ColumnMetadata,
  type: PropertyType,
): string | number | boolean | undefined {
  const value: unknown = column.default;
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return type === 'decimal' ? String(value) : value;
  return undefined; // none, or an SQL expression (`() => 'now()'`)
}

/** The column's own type where the API type does not name it: enums, json beside jsonb. */
function castType(column: ColumnMetadata, metadata: EntityMetadata, type: PropertyType): string {
  if (column.enum) {
    // TypeORM's name for an enum type unless the column names one.
    const enumName = column.enumName ?? `${metadata.tableName}_${column.databaseName}_enum`;
    return quoteIdentifier(enumName);
  }
  return column.type === 'json' ? 'json' : CAST_TYPES[type];
}

function propertyType(column: ColumnMetadata, metadata: EntityMetadata): PropertyType {
  // A join column takes the type of the key it references.
  const source = column.referencedColumn ?? column;
  const raw =
    typeof source.type === 'string' ? source.type : (source.type as { name?: string }).name;
  const fromConstructor: Record<string, PropertyType> = {
    Number: 'integer',
    String: 'string',
    Boolean: 'boolean',
    Date: 'datetime',
  };
  const type = COLUMN_TYPES[String(raw).toLowerCase()] ?? fromConstructor[String(raw)];
  if (!type) {
    throw new Error(
      `${metadata.tableName}.${column.databaseName}: column type ${raw} is not supported`,
    );
  }
  return type;
}

/** Whether the type or a child type, at any level, has a secured property. */
function securedInTree(type: EntityType): boolean {
  return (
    [...type.properties.values()].some((p) => p.secured) ||
    type.childGroups.some((group) => securedInTree(group.child))
  );
}

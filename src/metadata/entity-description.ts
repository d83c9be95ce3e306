import { labelOf } from '../model/entity.decorators';
import { EntityType, PropertyDefinition, PropertyType } from '../model/entity-type';

/** One property as `GET /rest/metadata/entity` describes it. */
export interface PropertyDescription {
  name: string;
  label: string;
  /** The entity API's and FETCH's type. */
  type: PropertyType;
  nullable: boolean;
  /** A value must be sent on create. */
  required: boolean;
  maxLength?: number;
  precision?: number;
  scale?: number;
  enum?: string[];
  /** Stored when a create leaves the property out. */
  default?: string | number | boolean;
  lookup?: { entity: string };
  /** Set by the entity's hooks: clients send it in vain. */
  computed: boolean;
  /** Set by the engine (owner columns, keys, times, a child's link to its parent). */
  system: boolean;
  /** Read and updated only where a role grants it. */
  secured?: true;
  /** Sent, never read back (a user's password). */
  writeOnly?: true;
}

export interface EntityDescription {
  name: string;
  label: string;
  /** Set on a child type: the type whose group it belongs to. */
  parent?: string;
  childGroups: { name: string; entity: string }[];
  properties: PropertyDescription[];
}

/**
 * An entity type as a client builds lists and forms from it, straight from the registry
 * the entity API and FETCH use. `readable` leaves out the secured properties the caller
 * may not read; credentials never appear.
 */
export function describeEntity(
  type: EntityType,
  readable: (property: PropertyDefinition) => boolean = () => true,
): EntityDescription {
  const properties = [...type.properties.values()]
    .filter((property) => !property.hidden && readable(property))
    .map(describeProperty);
  const writeOnly = type.writeOnly.map((name): PropertyDescription => ({
    name,
    label: labelOf(name),
    type: 'string',
    nullable: false,
    required: false,
    computed: false,
    system: false,
    writeOnly: true,
  }));
  return {
    name: type.name,
    label: type.label,
    ...(type.parent ? { parent: type.parent.type.name } : {}),
    childGroups: type.childGroups.map((group) => ({
      name: group.name,
      entity: group.child.name,
    })),
    properties: [...properties, ...writeOnly],
  };
}

function describeProperty(property: PropertyDefinition): PropertyDescription {
  return {
    name: property.name,
    label: property.label,
    type: property.type,
    nullable: property.nullable,
    required: property.required,
    ...(property.length !== undefined ? { maxLength: property.length } : {}),
    ...(property.precision !== undefined ? { precision: property.precision } : {}),
    ...(property.scale !== undefined ? { scale: property.scale } : {}),
    ...(property.values ? { enum: property.values } : {}),
    ...(property.defaultValue !== undefined ? { default: property.defaultValue } : {}),
    ...(property.lookup ? { lookup: { entity: property.lookup } } : {}),
    computed: property.origin === 'computed',
    system: property.origin === 'system' || property.origin === 'parent',
    ...(property.secured ? { secured: true as const } : {}),
  };
}

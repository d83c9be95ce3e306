import { Injectable, SetMetadata } from '@nestjs/common';
import { Entity } from 'typeorm';

export const BUSINESS_ENTITY = 'atrium:business-entity';
export const CHILD_GROUPS = 'atrium:child-groups';
export const COMPUTED_PROPERTIES = 'atrium:computed-properties';
export const ENTITY_HOOKS = 'atrium:entity-hooks';

/** Who may create, update and delete an entity type through the API; everyone may read. */
export type WriteAccess = 'everyone' | 'admin' | 'nobody';

export interface BusinessEntityOptions {
  write?: WriteAccess;
  /**
   * Properties a client may send but never reads back (e.g. a user's `password`); they
   * are handed to the hooks, which turn them into stored columns, and never stored as is.
   */
  writeOnly?: string[];
}

export interface BusinessEntityDefinition extends Required<BusinessEntityOptions> {
  name: string;
}

/**
 * Registers a TypeORM entity class as an entity type of the API under `name`, which is
 * also its table. The class extends `SystemColumns`.
 */
export function BusinessEntity(name: string, options: BusinessEntityOptions = {}): ClassDecorator {
  return (target) => {
    Entity(name)(target);
    const definition: BusinessEntityDefinition = {
      name,
      write: options.write ?? 'everyone',
      writeOnly: options.writeOnly ?? [],
    };
    Reflect.defineMetadata(BUSINESS_ENTITY, definition, target);
  };
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type EntityClass = Function;

/**
 * Declares a child group on the parent: its JSON name is `<parent>_<child>`, and the
 * child class must have a many-to-one to the parent (`id_<parent>`, ON DELETE CASCADE).
 */
export function ChildGroup(child: () => EntityClass): PropertyDecorator {
  return (prototype) => {
    const groups: (() => EntityClass)[] =
      Reflect.getMetadata(CHILD_GROUPS, prototype.constructor) ?? [];
    Reflect.defineMetadata(CHILD_GROUPS, [...groups, child], prototype.constructor);
  };
}

/** A property its hooks compute: clients may not set it (it is read-only in the API). */
export function Computed(): PropertyDecorator {
  return (prototype, propertyKey) => {
    const names: string[] = Reflect.getMetadata(COMPUTED_PROPERTIES, prototype.constructor) ?? [];
    Reflect.defineMetadata(
      COMPUTED_PROPERTIES,
      [...names, String(propertyKey)],
      prototype.constructor,
    );
  };
}

/** A Nest provider holding the business rules of one entity type, found at boot. */
export function EntityHooks(entityName: string): ClassDecorator {
  return (target) => {
    SetMetadata(ENTITY_HOOKS, entityName)(target);
    Injectable()(target);
  };
}

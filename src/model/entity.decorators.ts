import { Entity } from 'typeorm';

export const BUSINESS_ENTITY = 'atrium:business-entity';
export const CHILD_GROUPS = 'atrium:child-groups';
export const COMPUTED_PROPERTIES = 'atrium:computed-properties';
export const SECURED_PROPERTIES = 'atrium:secured-properties';
export const PROPERTY_LABELS = 'atrium:property-labels';

/**
 * Who may create, update and delete an entity type's records: holders of a role granting
 * it (`everyone` the security roles let), administrators, or nobody, through the entity
 * API; `own-routes`: holders of a role granting it, through the type's own routes only
 * (files, through /storage).
 */
export type WriteAccess = 'everyone' | 'admin' | 'nobody' | 'own-routes';

export interface BusinessEntityOptions {
  write?: WriteAccess;
  /**
   * Whether security roles decide who reads and changes its records, by depth (the
   * default for `write: 'everyone'`); otherwise the whole organization reads it. Child
   * types follow their parent's. `named`: only a privilege naming the type grants
   * anything, never a role's `*` row (the change log: an audit is given on purpose).
   */
  privileges?: boolean | 'named';
  /**
   * Properties a client may send but never reads back (e.g. a user's `password`); they
   * are handed to the hooks, which turn them into stored columns, and never stored as is.
   */
  writeOnly?: string[];
  /** The name people read (metadata, the OpenAPI document); by default the name in words. */
  label?: string;
  /**
   * Whether its writes go to the change log (the default): off for high-volume tables
   * whose history nobody asks for. Child types follow their parent's.
   */
  audit?: boolean;
  /** Whether a record may be given to another owner (`POST …/{key}/owner`); by default it may. */
  assignable?: boolean;
  /**
   * The route that makes its records, where the entity API's create does not (it refuses,
   * naming this one): a webhook's, which answers its signing secret once. Hooks and
   * workflows still create them through ScopedData.
   */
  createdBy?: string;
  /**
   * The security event a write of its rows also is, logged once per record above them
   * and transaction: a role's privileges or a user's roles changed.
   */
  securityEvent?: SecurityEvent;
  /**
   * Properties that are rights, whose change is also a security event on the record when
   * they are granted or taken (a user's `is_admin`): a value that is or was true.
   */
  securityProperties?: Record<string, SecurityEvent>;
}

export type SecurityEvent = 'privileges_changed' | 'roles_changed';

export interface BusinessEntityDefinition extends Required<
  Omit<BusinessEntityOptions, 'privileges' | 'securityEvent' | 'createdBy'>
> {
  name: string;
  securityEvent?: SecurityEvent;
  createdBy?: string;
  privileges: boolean;
  grantedByName: boolean;
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
      privileges:
        options.privileges === undefined
          ? ['everyone', 'own-routes'].includes(options.write ?? 'everyone')
          : options.privileges !== false,
      grantedByName: options.privileges === 'named',
      writeOnly: options.writeOnly ?? [],
      label: options.label ?? labelOf(name),
      audit: options.audit ?? true,
      assignable: options.assignable ?? true,
      createdBy: options.createdBy,
      securityEvent: options.securityEvent,
      securityProperties: options.securityProperties ?? {},
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
    const groups =
      (Reflect.getMetadata(CHILD_GROUPS, prototype.constructor) as (() => EntityClass)[]) ?? [];
    Reflect.defineMetadata(CHILD_GROUPS, [...groups, child], prototype.constructor);
  };
}

/** A property its hooks compute: clients may not set it (it is read-only in the API). */
export function Computed(): PropertyDecorator {
  return (prototype, propertyKey) => {
    const names =
      (Reflect.getMetadata(COMPUTED_PROPERTIES, prototype.constructor) as string[]) ?? [];
    Reflect.defineMetadata(
      COMPUTED_PROPERTIES,
      [...names, String(propertyKey)],
      prototype.constructor,
    );
  };
}

/**
 * A property only holders of a role granting it may read (left out of reads, a 403 in
 * FETCH) or update (a 403 on write): `role_role_field_permission`.
 */
export function Secured(): PropertyDecorator {
  return (prototype, propertyKey) => {
    const names =
      (Reflect.getMetadata(SECURED_PROPERTIES, prototype.constructor) as string[]) ?? [];
    Reflect.defineMetadata(
      SECURED_PROPERTIES,
      [...names, String(propertyKey)],
      prototype.constructor,
    );
  };
}

/** The name people read for a property; by default its name in words (`labelOf`). */
export function Label(label: string): PropertyDecorator {
  return (prototype, propertyKey) => {
    const labels =
      (Reflect.getMetadata(PROPERTY_LABELS, prototype.constructor) as Record<string, string>) ?? {};
    Reflect.defineMetadata(
      PROPERTY_LABELS,
      { ...labels, [String(propertyKey)]: label },
      prototype.constructor,
    );
  };
}

/** `credit_limit` → "Credit limit"; a lookup `id_account` → "Account". */
export function labelOf(name: string): string {
  const words = name.replace(/^id_(?=.)/, '').replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

import type { OperationObject, PathsObject, SchemaObject } from '@nestjs/swagger';
import type { Privilege } from '../access/access.privileges';
import {
  PRIVILEGE_EXTENSION,
  privilegeNote,
  REQUIRED_PRIVILEGE,
} from '../access/requires.decorator';
import { EntityController } from '../entity/entity.controller';
import { EntityType, PropertyDefinition } from '../model/entity-type';
import {
  decimalInput,
  errorResponse,
  json,
  jsonSchemaOf,
  NOT_AUTHENTICATED,
  NOT_JSON,
  objectSchema,
  ref,
  RULE_FAILED,
  Schemas,
  WRITE_RESULT_SCHEMA,
} from './openapi.shared';

type Form = 'record' | 'create' | 'update';

/** Extensions (`x-…`) carry what OpenAPI has no word for: lookups, secured properties. */
type ExtendedSchema = SchemaObject & Record<`x-${string}`, unknown>;

function propertySchema(property: PropertyDefinition, form: Form): SchemaObject {
  const input = form !== 'record';
  const type = input && property.type === 'decimal' ? decimalInput() : jsonSchemaOf(property.type);
  const schema: ExtendedSchema = { title: property.label, ...type };
  if (property.nullable) schema.nullable = true;
  if (property.length !== undefined) schema.maxLength = property.length;
  // OpenAPI 3.0: a nullable enum lists null among its values.
  if (property.values)
    schema.enum = property.nullable ? [...property.values, null] : property.values;
  if (property.lookup) {
    schema.description = `The key of a ${property.lookup}`;
    schema['x-lookup'] = property.lookup;
  }
  if (property.secured) schema['x-secured'] = true;
  if (!input && property.origin !== 'client') schema.readOnly = true;
  return schema;
}

/** Schema names: `<type>.record` (read), `<type>.create`, `<type>.update`. */
const schemaName = (type: EntityType, form: Form) => `${type.name}.${form}`;

/** The envelope (spec 2.2) of a type in one form, its child groups in the same form. */
function envelope(type: EntityType, form: Form): SchemaObject {
  const visible = [...type.properties.values()].filter((p) => !p.hidden);
  const properties: Record<string, SchemaObject> = {};
  const required: string[] = [];
  if (form === 'record') {
    for (const property of visible) {
      properties[property.name] = propertySchema(property, form);
      // A secured property is left out for a caller no role lets read it.
      if (!property.secured) required.push(property.name);
    }
  } else {
    if (form === 'update') properties.key = propertySchema(type.properties.get('key')!, form);
    for (const property of visible.filter((p) => p.origin === 'client')) {
      properties[property.name] = propertySchema(property, form);
      if (form === 'create' && property.required) required.push(property.name);
    }
    for (const name of type.writeOnly) properties[name] = { type: 'string', writeOnly: true };
  }
  const groups = type.childGroups.map((group) => group.name);
  const children = Object.fromEntries(
    type.childGroups.map((group) => [
      group.name,
      { type: 'array', items: childItem(group.child, form) } satisfies SchemaObject,
    ]),
  );
  const closed = { additionalProperties: false };
  return objectSchema(
    {
      entity_name: { type: 'string', enum: [type.name] },
      properties: objectSchema(properties, required, closed),
      children: objectSchema(children, form === 'record' ? groups : [], closed),
    },
    form === 'record'
      ? ['entity_name', 'properties', 'children']
      : form === 'create' && required.length > 0
        ? ['properties']
        : [],
    { title: type.label },
  );
}

/**
 * A child in a group of the given form. In an update, a child without `key` is created
 * (its required properties apply) and one with a key updated.
 */
function childItem(child: EntityType, form: Form) {
  if (form !== 'update') return ref(schemaName(child, form));
  return {
    oneOf: [
      ref(schemaName(child, 'create')),
      {
        allOf: [
          ref(schemaName(child, 'update')),
          objectSchema({ properties: objectSchema({}, ['key']) }, ['properties']),
        ],
      },
    ],
  } satisfies SchemaObject;
}

const KEY_PARAMETER = {
  name: 'key',
  in: 'path' as const,
  required: true,
  schema: { type: 'integer', format: 'int64', minimum: 1 } satisfies SchemaObject,
};

const IF_MATCH_PARAMETER = {
  name: 'If-Match',
  in: 'header' as const,
  required: false,
  description: 'The ETag of the last read: 412 when the record changed since',
  schema: { type: 'string' } satisfies SchemaObject,
};

const WRITTEN = { description: 'Written', ...json(ref(WRITE_RESULT_SCHEMA)) };

/** Why a write is refused, as the type's write setting has it. */
function refusal(type: EntityType): string {
  const who =
    type.write === 'admin' ? 'administrators only' : "the caller's roles do not reach the record";
  return `Not allowed: ${who} (or a cookie session without its CSRF header)`;
}

function operation(
  type: EntityType,
  id: string,
  summary: string,
  responses: OperationObject['responses'],
  extra: Partial<OperationObject> = {},
): OperationObject {
  return {
    operationId: `${id}_${type.name}`,
    summary,
    tags: [`entity: ${type.name}`],
    responses: { ...responses, '401': NOT_AUTHENTICATED },
    ...extra,
  };
}

const NOT_FOUND = errorResponse('No such record, or one the caller may not read');

/**
 * The purge of a record's history, with the privilege its route `@Requires` (read from the
 * route itself, so that the document and the guard cannot say two things).
 */
function purgeOperation(type: EntityType): OperationObject {
  const route = Object.getOwnPropertyDescriptor(EntityController.prototype, 'purge')!
    .value as object;
  const privilege = Reflect.getMetadata(REQUIRED_PRIVILEGE, route) as Privilege;
  return operation(
    type,
    'purgeHistory',
    `${type.label}: erase its history, but for one entry saying who erased it`,
    {
      '200': {
        description: 'How many entries were erased',
        ...json(objectSchema({ purged: jsonSchemaOf('integer') }, ['purged'])),
      },
      '403': errorResponse(privilegeNote(privilege)),
      '404': NOT_FOUND,
    },
    { parameters: [KEY_PARAMETER], ...{ [PRIVILEGE_EXTENSION]: privilege } },
  );
}

function assignOperation(type: EntityType): OperationObject {
  return operation(
    type,
    'assign',
    `${type.label}: give it and its children to a user and the user's business unit`,
    {
      '200': WRITTEN,
      '400': errorResponse('No such user'),
      '403': errorResponse(
        'Not allowed: the caller must be able to write it where it is and where it goes',
      ),
      '404': NOT_FOUND,
      '415': NOT_JSON,
    },
    {
      parameters: [KEY_PARAMETER],
      requestBody: {
        required: true,
        ...json(
          objectSchema({ userKey: { ...jsonSchemaOf('bigint'), minimum: 1 } }, ['userKey'], {
            additionalProperties: false,
          }),
        ),
      },
    },
  );
}

/**
 * Paths and schemas of every entity type, from the registry: an application's own types
 * appear with no code of its own. A child type is read on its own and written through
 * its parent's group; a type the entity API does not write (`write: 'nobody'` or
 * `'own-routes'`) is read, and assigned where its own routes write it.
 */
export function entityDocument(types: EntityType[]): { paths: PathsObject; schemas: Schemas } {
  const paths: PathsObject = {};
  const schemas: Schemas = {};
  for (const type of types) {
    const writable = (type.write === 'everyone' || type.write === 'admin') && !type.parent;
    // As EntityService.assign: a type its own routes write is assigned as its roles say.
    const assignable = !type.parent && type.assignable && (writable || type.write === 'own-routes');
    for (const form of ['record', 'create', 'update'] as const) {
      schemas[schemaName(type, form)] = envelope(type, form);
    }
    const base = `/rest/entity/${type.name}`;
    const read = operation(
      type,
      'read',
      `${type.label}: read it with its child groups`,
      {
        '200': {
          description: 'The record; ETag header',
          headers: { ETag: { schema: { type: 'string' } } },
          ...json(ref(schemaName(type, 'record'))),
        },
        '400': errorResponse('The key is not a whole number'),
        '404': NOT_FOUND,
      },
      { parameters: [KEY_PARAMETER] },
    );
    paths[`${base}/{key}`] = { get: read };
    if (assignable) paths[`${base}/{key}/owner`] = { post: assignOperation(type) };
    if (type.audit && !type.parent) {
      paths[`${base}/{key}/history/purge`] = { post: purgeOperation(type) };
    }
    if (!writable) continue;
    const refused = {
      '400': errorResponse('Wrong type, unknown or missing property, or a lookup to nothing'),
      '403': errorResponse(refusal(type)),
      '409': errorResponse('A unique value is taken'),
      '415': NOT_JSON,
      '424': RULE_FAILED,
    };
    // A type made by a route of its own (type.createdBy) is created there only.
    if (!type.createdBy) {
      paths[base] = {
        post: operation(
          type,
          'create',
          `${type.label}: create it with its child groups`,
          { '200': WRITTEN, ...refused },
          { requestBody: { required: true, ...json(ref(schemaName(type, 'create'))) } },
        ),
      };
    }
    const found = {
      '404': NOT_FOUND,
      '412': errorResponse('If-Match no longer matches'),
    };
    paths[`${base}/{key}`] = {
      ...paths[`${base}/{key}`],
      post: operation(
        type,
        'update',
        `${type.label}: update it (absent properties stay, a child group sent is the new set)`,
        { '200': WRITTEN, ...refused, ...found },
        {
          parameters: [KEY_PARAMETER, IF_MATCH_PARAMETER],
          requestBody: { required: true, ...json(ref(schemaName(type, 'update'))) },
        },
      ),
      delete: operation(
        type,
        'delete',
        `${type.label}: delete it and its children`,
        {
          '200': WRITTEN,
          '403': refused['403'],
          '409': errorResponse('Other records still refer to it'),
          '424': RULE_FAILED,
          ...found,
        },
        { parameters: [KEY_PARAMETER, IF_MATCH_PARAMETER] },
      ),
    };
  }
  return { paths, schemas };
}

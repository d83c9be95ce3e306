import type {
  OperationObject,
  PathsObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
} from '@nestjs/swagger';
import { EntityType, PropertyDefinition, PropertyType } from '../entity/entity-type';

type Schemas = Record<string, SchemaObject>;

const ref = (name: string): ReferenceObject => ({ $ref: `#/components/schemas/${name}` });

/** A JSON body of a response or request. */
const json = (schema: SchemaObject | ReferenceObject) => ({
  content: { 'application/json': { schema } },
});

export const ERROR_SCHEMA = 'Error';
const RULE_SCHEMA = 'BusinessRuleFailure';
const WRITE_RESULT_SCHEMA = 'WriteResult';

/** What every operation may answer, by status, as the exception filter writes it. */
export function errorResponse(description: string): ResponseObject {
  return { description, ...json(ref(ERROR_SCHEMA)) };
}

export const RULE_FAILED: ResponseObject = {
  description: 'A business rule failed (spec 2.4)',
  ...json(ref(RULE_SCHEMA)),
};

/** The schemas every entity path refers to: `{detail}`, the 424 record, the write result. */
export const SHARED_SCHEMAS: Schemas = {
  [ERROR_SCHEMA]: {
    type: 'object',
    required: ['detail'],
    properties: { detail: { type: 'string' } },
  },
  [RULE_SCHEMA]: {
    type: 'object',
    required: ['eventName', 'entityName', 'detail'],
    properties: {
      eventName: { type: 'string', enum: ['onBeforeInsert', 'onBeforeUpdate', 'onBeforeDelete'] },
      entityName: { type: 'string' },
      propertyName: { type: 'string' },
      childEntityName: { type: 'string' },
      childPropertyName: { type: 'string' },
      childEntityIndex: { type: 'integer' },
      detail: { type: 'string' },
    },
  },
  [WRITE_RESULT_SCHEMA]: {
    type: 'object',
    required: ['operation', 'key'],
    properties: {
      operation: { type: 'string', enum: ['insert', 'update', 'delete', 'assign'] },
      key: { type: 'integer', format: 'int64' },
    },
  },
};

/** The JSON of each API type, as the entity API reads and writes it. */
const JSON_TYPES: Record<PropertyType, SchemaObject> = {
  integer: { type: 'integer', format: 'int32' },
  bigint: { type: 'integer', format: 'int64' },
  // Exact: a decimal travels as a string (a number is accepted on input too).
  decimal: { type: 'string', format: 'decimal', pattern: '^-?\\d+(\\.\\d+)?$' },
  string: { type: 'string' },
  boolean: { type: 'boolean' },
  datetime: { type: 'string', format: 'date-time' },
  date: { type: 'string', format: 'date' },
  uuid: { type: 'string', format: 'uuid' },
  json: {},
};

export function jsonSchemaOf(type: PropertyType): SchemaObject {
  return { ...JSON_TYPES[type] };
}

/** Extensions (`x-…`) carry what OpenAPI has no word for: lookups, secured properties. */
type ExtendedSchema = SchemaObject & Record<`x-${string}`, unknown>;

function propertySchema(property: PropertyDefinition, readOnly: boolean): SchemaObject {
  const schema: ExtendedSchema = { title: property.label, ...jsonSchemaOf(property.type) };
  if (property.nullable) schema.nullable = true;
  if (property.length !== undefined) schema.maxLength = property.length;
  if (property.values) schema.enum = property.values;
  if (property.lookup) {
    schema.description = `The key of a ${property.lookup}`;
    schema['x-lookup'] = property.lookup;
  }
  if (property.secured) schema['x-secured'] = true;
  if (readOnly) schema.readOnly = true;
  return schema;
}

/** Schema names: `<type>.record` (read), `<type>.create`, `<type>.update`. */
const schemaName = (type: EntityType, form: 'record' | 'create' | 'update') =>
  `${type.name}.${form}`;

/** The envelope (spec 2.2) of a type in one form, its child groups in the same form. */
function envelope(type: EntityType, form: 'record' | 'create' | 'update'): SchemaObject {
  const visible = [...type.properties.values()].filter((p) => !p.hidden);
  const properties: Record<string, SchemaObject> = {};
  const required: string[] = [];
  if (form === 'record') {
    for (const property of visible) {
      properties[property.name] = propertySchema(property, property.origin !== 'client');
      // A secured property is left out for a caller no role lets read it.
      if (!property.secured) required.push(property.name);
    }
  } else {
    if (form === 'update') properties.key = propertySchema(type.properties.get('key')!, false);
    for (const property of visible.filter((p) => p.origin === 'client')) {
      properties[property.name] = propertySchema(property, false);
      if (form === 'create' && property.required) required.push(property.name);
    }
    for (const name of type.writeOnly) properties[name] = { type: 'string', writeOnly: true };
  }
  const children = Object.fromEntries(
    type.childGroups.map((group) => [
      group.name,
      { type: 'array', items: ref(schemaName(group.child, form)) } satisfies SchemaObject,
    ]),
  );
  const childGroups = type.childGroups.map((group) => group.name);
  return {
    type: 'object',
    title: type.label,
    // OpenAPI 3.0 takes no empty `required`.
    ...(form === 'record' ? { required: ['entity_name', 'properties', 'children'] } : {}),
    properties: {
      entity_name: { type: 'string', enum: [type.name] },
      properties: {
        type: 'object',
        ...(required.length > 0 ? { required } : {}),
        properties,
        additionalProperties: false,
      },
      children: {
        type: 'object',
        ...(form === 'record' && childGroups.length > 0 ? { required: childGroups } : {}),
        properties: children,
        additionalProperties: false,
      },
    },
    ...(form === 'create' && required.length > 0 ? { required: ['properties'] } : {}),
  };
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

/** Who may write a type through the API, as its operations say it. */
function writers(type: EntityType): string {
  return type.write === 'admin'
    ? ' Administrators only.'
    : ' Needs the privilege at a depth that reaches the record.';
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
    responses: {
      ...responses,
      '401': errorResponse('Not authenticated'),
    },
    ...extra,
  };
}

/**
 * Paths and schemas of every entity type, from the registry: an application's own types
 * appear with no code of its own. A child type is read on its own and written through
 * its parent's group; a type no client writes (`write: 'nobody'`) is read only.
 */
export function entityDocument(types: EntityType[]): { paths: PathsObject; schemas: Schemas } {
  const paths: PathsObject = {};
  const schemas: Schemas = {};
  for (const type of types) {
    const writable = type.write !== 'nobody' && !type.parent;
    for (const form of ['record', 'create', 'update'] as const) {
      schemas[schemaName(type, form)] = envelope(type, form);
    }
    const base = `/rest/entity/${type.name}`;
    const read = operation(
      type,
      'read',
      `Read a ${type.label} with its child groups`,
      {
        '200': {
          description: 'The record; ETag header',
          headers: { ETag: { schema: { type: 'string' } } },
          ...json(ref(schemaName(type, 'record'))),
        },
        '400': errorResponse('The key is not a whole number'),
        '404': errorResponse('No such record, or one the caller may not read'),
      },
      { parameters: [KEY_PARAMETER] },
    );
    paths[`${base}/{key}`] = { get: read };
    if (!writable) continue;
    const refused = {
      '400': errorResponse('Wrong type, unknown or missing property, or a lookup to nothing'),
      '403': errorResponse(`Not allowed.${writers(type)}`),
      '409': errorResponse('A unique value is taken'),
      '424': RULE_FAILED,
    };
    paths[base] = {
      post: operation(
        type,
        'create',
        `Create a ${type.label} with its child groups`,
        { '200': WRITTEN, ...refused },
        { requestBody: { required: true, ...json(ref(schemaName(type, 'create'))) } },
      ),
    };
    const found = {
      '404': errorResponse('No such record, or one the caller may not read'),
      '412': errorResponse('If-Match no longer matches'),
    };
    paths[`${base}/{key}`] = {
      get: read,
      post: operation(
        type,
        'update',
        `Update a ${type.label}: absent properties stay, a child group sent is the new set`,
        { '200': WRITTEN, ...refused, ...found },
        {
          parameters: [KEY_PARAMETER, IF_MATCH_PARAMETER],
          requestBody: { required: true, ...json(ref(schemaName(type, 'update'))) },
        },
      ),
      delete: operation(
        type,
        'delete',
        `Delete a ${type.label} and its children`,
        { '200': WRITTEN, '403': refused['403'], '424': RULE_FAILED, ...found },
        { parameters: [KEY_PARAMETER, IF_MATCH_PARAMETER] },
      ),
    };
    paths[`${base}/{key}/owner`] = {
      post: operation(
        type,
        'assign',
        `Give a ${type.label} and its children to a user and the user's business unit`,
        {
          '200': WRITTEN,
          '400': errorResponse('No such user'),
          '403': refused['403'],
          '404': found['404'],
        },
        {
          parameters: [KEY_PARAMETER],
          requestBody: {
            required: true,
            ...json({
              type: 'object',
              required: ['userKey'],
              properties: { userKey: { type: 'integer', format: 'int64', minimum: 1 } },
              additionalProperties: false,
            }),
          },
        },
      ),
    };
  }
  return { paths, schemas };
}

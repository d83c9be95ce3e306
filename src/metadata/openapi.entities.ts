import type {
  OperationObject,
  PathsObject,
  ReferenceObject,
  ResponseObject,
  SchemaObject,
} from '@nestjs/swagger';
import { EntityType, PropertyDefinition, PropertyType } from '../entity/entity-type';
import { DECIMAL } from '../entity/property-value';

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

/** The JSON of each API type, as the entity API reads and writes it. */
const JSON_TYPES: Record<PropertyType, SchemaObject> = {
  integer: { type: 'integer', format: 'int32' },
  bigint: { type: 'integer', format: 'int64' },
  // Exact: a decimal is read as a string (inputs take a number too: decimalInput).
  decimal: { type: 'string', format: 'decimal', pattern: DECIMAL.source },
  string: { type: 'string' },
  boolean: { type: 'boolean' },
  datetime: { type: 'string', format: 'date-time' },
  date: { type: 'string', format: 'date' },
  uuid: { type: 'string', format: 'uuid' },
  json: {},
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
  EntityDescription: {
    type: 'object',
    required: ['name', 'label', 'childGroups', 'properties'],
    properties: {
      name: { type: 'string' },
      label: { type: 'string' },
      parent: { type: 'string' },
      childGroups: {
        type: 'array',
        items: {
          type: 'object',
          required: ['name', 'entity'],
          properties: { name: { type: 'string' }, entity: { type: 'string' } },
        },
      },
      properties: { type: 'array', items: ref('PropertyDescription') },
    },
  },
  PropertyDescription: {
    type: 'object',
    required: ['name', 'label', 'type', 'nullable', 'required', 'computed', 'system'],
    properties: {
      name: { type: 'string' },
      label: { type: 'string' },
      type: { type: 'string', enum: Object.keys(JSON_TYPES) },
      nullable: { type: 'boolean' },
      required: { type: 'boolean' },
      maxLength: { type: 'integer' },
      precision: { type: 'integer' },
      scale: { type: 'integer' },
      enum: { type: 'array', items: { type: 'string' } },
      lookup: {
        type: 'object',
        required: ['entity'],
        properties: { entity: { type: 'string' } },
      },
      computed: { type: 'boolean' },
      system: { type: 'boolean' },
      secured: { type: 'boolean' },
      writeOnly: { type: 'boolean' },
    },
  },
  WorkflowDescription: {
    type: 'object',
    required: ['name', 'methods'],
    properties: {
      name: { type: 'string' },
      methods: {
        type: 'array',
        items: {
          type: 'object',
          required: ['name', 'access', 'requires', 'roles', 'arguments'],
          properties: {
            name: { type: 'string' },
            access: { type: 'string', enum: ['everyone', 'admin'] },
            requires: {
              type: 'object',
              additionalProperties: { type: 'string', enum: ['create', 'read', 'write', 'delete'] },
            },
            roles: { type: 'array', items: { type: 'string' } },
            arguments: {
              type: 'array',
              items: {
                type: 'object',
                required: ['name', 'type', 'required'],
                properties: {
                  name: { type: 'string' },
                  type: { type: 'string' },
                  required: { type: 'boolean' },
                },
              },
            },
          },
        },
      },
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

export function jsonSchemaOf(type: PropertyType): SchemaObject {
  return { ...JSON_TYPES[type] };
}

/** What a write takes for a decimal: its exact text, or a JSON number. */
export function decimalInput(): SchemaObject {
  return { oneOf: [jsonSchemaOf('decimal'), { type: 'number' }] };
}

/** Extensions (`x-…`) carry what OpenAPI has no word for: lookups, secured properties. */
type ExtendedSchema = SchemaObject & Record<`x-${string}`, unknown>;

function propertySchema(
  property: PropertyDefinition,
  form: 'record' | 'create' | 'update',
): SchemaObject {
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
const schemaName = (type: EntityType, form: 'record' | 'create' | 'update') =>
  `${type.name}.${form}`;

/** The envelope (spec 2.2) of a type in one form, its child groups in the same form. */
function envelope(type: EntityType, form: 'record' | 'create' | 'update'): SchemaObject {
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
  const children = Object.fromEntries(
    type.childGroups.map((group) => [
      group.name,
      { type: 'array', items: childItem(group.child, form) } satisfies SchemaObject,
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

/**
 * A child in a group of the given form. In an update, a child without `key` is created
 * (its required properties apply) and one with a key updated.
 */
function childItem(child: EntityType, form: 'record' | 'create' | 'update') {
  if (form !== 'update') return ref(schemaName(child, form));
  return {
    oneOf: [
      ref(schemaName(child, 'create')),
      {
        allOf: [
          ref(schemaName(child, 'update')),
          {
            type: 'object',
            required: ['properties'],
            properties: { properties: { type: 'object', required: ['key'] } },
          },
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

/** Who may write a type through the API, as its operations say it. */
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
    responses: {
      ...responses,
      '401': errorResponse('Not authenticated'),
    },
    ...extra,
  };
}

const NOT_JSON = errorResponse('The body is not application/json');
const NOT_FOUND = errorResponse('No such record, or one the caller may not read');

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
        ...json({
          type: 'object',
          required: ['userKey'],
          properties: { userKey: { type: 'integer', format: 'int64', minimum: 1 } },
          additionalProperties: false,
        }),
      },
    },
  );
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
    // As EntityService.assign: a type roles govern is assigned even where no client writes it.
    const assignable = !type.parent && (writable || type.privileges);
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
    if (!writable) continue;
    const refused = {
      '400': errorResponse('Wrong type, unknown or missing property, or a lookup to nothing'),
      '403': errorResponse(refusal(type)),
      '409': errorResponse('A unique value is taken'),
      '415': NOT_JSON,
      '424': RULE_FAILED,
    };
    paths[base] = {
      post: operation(
        type,
        'create',
        `${type.label}: create it with its child groups`,
        { '200': WRITTEN, ...refused },
        { requestBody: { required: true, ...json(ref(schemaName(type, 'create'))) } },
      ),
    };
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

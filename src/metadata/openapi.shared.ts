import type { ReferenceObject, ResponseObject, SchemaObject } from '@nestjs/swagger';
import { ACTIONS } from '../access/access.depth';
import type { PropertyType } from '../model/entity-type';
import { HOOK_EVENTS } from '../entity/entity.errors';
import { WRITE_OPERATIONS } from '../entity/entity.service';
import { DECIMAL } from '../model/property-value';
import { ARGUMENT_TYPES } from '../workflow/workflow.decorators';

/** What the entity and workflow paths of the document both build with. */
export type Schemas = Record<string, SchemaObject>;

export const ref = (name: string): ReferenceObject => ({ $ref: `#/components/schemas/${name}` });

/** A JSON body of a response or request. */
export const json = (schema: SchemaObject | ReferenceObject) => ({
  content: { 'application/json': { schema } },
});

const TEXT: SchemaObject = { type: 'string' };
const FLAG: SchemaObject = { type: 'boolean' };
const WHOLE: SchemaObject = { type: 'integer' };
const listOf = (items: SchemaObject | ReferenceObject): SchemaObject => ({ type: 'array', items });
const oneOf = (values: readonly string[]): SchemaObject => ({ type: 'string', enum: [...values] });

/** An object's schema; `required` only when it names something (OpenAPI 3.0 takes no `[]`). */
export function objectSchema(
  properties: Record<string, SchemaObject | ReferenceObject>,
  required: string[] = [],
  extra: SchemaObject = {},
): SchemaObject {
  return { type: 'object', ...(required.length > 0 ? { required } : {}), properties, ...extra };
}

/** The JSON of each API type, as the entity API reads and writes it. */
const JSON_TYPES: Record<PropertyType, SchemaObject> = {
  integer: { type: 'integer', format: 'int32' },
  bigint: { type: 'integer', format: 'int64' },
  // Exact: a decimal is read as a string (inputs take a number too: decimalInput).
  decimal: { type: 'string', format: 'decimal', pattern: DECIMAL.source },
  string: TEXT,
  boolean: FLAG,
  datetime: { type: 'string', format: 'date-time' },
  date: { type: 'string', format: 'date' },
  uuid: { type: 'string', format: 'uuid' },
  json: {},
};

export function jsonSchemaOf(type: PropertyType): SchemaObject {
  return { ...JSON_TYPES[type] };
}

/** What a write takes for a decimal: its exact text, or a JSON number. */
export function decimalInput(): SchemaObject {
  return { oneOf: [jsonSchemaOf('decimal'), { type: 'number' }] };
}

const ERROR_SCHEMA = 'Error';
const RULE_SCHEMA = 'BusinessRuleFailure';
export const WRITE_RESULT_SCHEMA = 'WriteResult';

/** A refusal, as the exception filter writes it: `{detail}`. */
export function errorResponse(description: string): ResponseObject {
  return { description, ...json(ref(ERROR_SCHEMA)) };
}

export const NOT_AUTHENTICATED = errorResponse('Not authenticated');
export const NOT_JSON = errorResponse('The body is not application/json');
export const RULE_FAILED: ResponseObject = {
  description: 'A business rule failed (spec 2.4)',
  ...json(ref(RULE_SCHEMA)),
};

/** The schemas the paths refer to: errors, the write result, the metadata answers. */
export const SHARED_SCHEMAS: Schemas = {
  [ERROR_SCHEMA]: objectSchema({ detail: TEXT }, ['detail']),
  [RULE_SCHEMA]: objectSchema(
    {
      eventName: oneOf(HOOK_EVENTS),
      entityName: TEXT,
      propertyName: TEXT,
      childEntityName: TEXT,
      childPropertyName: TEXT,
      childEntityIndex: WHOLE,
      detail: TEXT,
    },
    ['eventName', 'entityName', 'detail'],
  ),
  [WRITE_RESULT_SCHEMA]: objectSchema(
    { operation: oneOf(WRITE_OPERATIONS), key: jsonSchemaOf('bigint') },
    ['operation', 'key'],
  ),
  EntityDescription: objectSchema(
    {
      name: TEXT,
      label: TEXT,
      parent: TEXT,
      childGroups: listOf(objectSchema({ name: TEXT, entity: TEXT }, ['name', 'entity'])),
      properties: listOf(ref('PropertyDescription')),
    },
    ['name', 'label', 'childGroups', 'properties'],
  ),
  PropertyDescription: objectSchema(
    {
      name: TEXT,
      label: TEXT,
      type: oneOf(Object.keys(JSON_TYPES)),
      nullable: FLAG,
      required: FLAG,
      maxLength: WHOLE,
      precision: WHOLE,
      scale: WHOLE,
      enum: listOf(TEXT),
      default: { oneOf: [TEXT, { type: 'number' }, FLAG] },
      lookup: objectSchema({ entity: TEXT }, ['entity']),
      computed: FLAG,
      system: FLAG,
      secured: FLAG,
      writeOnly: FLAG,
    },
    ['name', 'label', 'type', 'nullable', 'required', 'computed', 'system'],
  ),
  WorkflowDescription: objectSchema(
    {
      name: TEXT,
      methods: listOf(
        objectSchema(
          {
            name: TEXT,
            access: oneOf(['everyone', 'admin']),
            requires: { type: 'object', additionalProperties: oneOf(ACTIONS) },
            roles: listOf(TEXT),
            arguments: listOf(
              objectSchema({ name: TEXT, type: oneOf(ARGUMENT_TYPES), required: FLAG }, [
                'name',
                'type',
                'required',
              ]),
            ),
          },
          ['name', 'access', 'requires', 'roles', 'arguments'],
        ),
      ),
    },
    ['name', 'methods'],
  ),
};

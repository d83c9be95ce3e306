import type { PathsObject, SchemaObject } from '@nestjs/swagger';
import type { ArgumentType } from '../workflow/workflow.decorators';
import type { WorkflowDescription } from '../workflow/workflow.service';
import { ARGUMENT_DATETIME } from '../workflow/workflow.arguments';
import {
  decimalInput,
  errorResponse,
  json,
  NOT_AUTHENTICATED,
  NOT_JSON,
  objectSchema,
  RULE_FAILED,
} from './openapi.shared';

/** An argument's JSON, as bindArguments reads it; an optional one may also be null. */
function argumentSchema({
  type,
  required,
}: {
  type: ArgumentType;
  required: boolean;
}): SchemaObject {
  const schemas: Record<ArgumentType, SchemaObject> = {
    string: { type: 'string' },
    // Any safe integer: arguments are often keys.
    integer: { type: 'integer', format: 'int64' },
    decimal: decimalInput(),
    datetime: {
      type: 'string',
      pattern: ARGUMENT_DATETIME.source,
      description: 'YYYY-MM-DDThh:mm:ss, read as UTC',
    },
    boolean: { type: 'boolean' },
  };
  return required ? schemas[type] : { ...schemas[type], nullable: true };
}

/** A path per workflow method, its body the method's arguments (spec 4.4). */
export function workflowPaths(workflows: WorkflowDescription[]): PathsObject {
  const paths: PathsObject = {};
  for (const workflow of workflows) {
    for (const method of workflow.methods) {
      const requirements = [
        method.access === 'admin' ? 'administrators only' : '',
        ...Object.entries(method.requires).map(([entity, action]) => `${action} on ${entity}`),
        method.roles.length > 0 ? `one of the roles ${method.roles.join(', ')}` : '',
      ].filter(Boolean);
      paths[`/rest/workflow/${workflow.name}/${method.name}`] = {
        post: {
          operationId: `workflow_${workflow.name}_${method.name}`,
          summary: `Run ${workflow.name}.${method.name}`,
          description: requirements.length > 0 ? `Needs ${requirements.join('; ')}.` : undefined,
          tags: [`workflow: ${workflow.name}`],
          requestBody: {
            required: true,
            ...json(
              objectSchema(
                Object.fromEntries(method.arguments.map((a) => [a.name, argumentSchema(a)])),
                method.arguments.filter((a) => a.required).map((a) => a.name),
                { additionalProperties: false },
              ),
            ),
          },
          responses: {
            '200': {
              description: "The method's result object; any other value as {result}",
              ...json({ type: 'object', additionalProperties: true }),
            },
            '400': errorResponse('An argument missing, unknown or of the wrong type'),
            '401': NOT_AUTHENTICATED,
            '403': errorResponse('The caller lacks what the method needs'),
            '404': errorResponse('A record the method names is missing or beyond reach'),
            '409': errorResponse('A unique value is taken, or the method refuses the state'),
            '415': NOT_JSON,
            '424': RULE_FAILED,
          },
        },
      };
    }
  }
  return paths;
}

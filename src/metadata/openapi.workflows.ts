import type { PathsObject, SchemaObject } from '@nestjs/swagger';
import type { ArgumentType } from '../workflow/workflow.decorators';
import type { WorkflowDescription } from '../workflow/workflow.service';
import { errorResponse, jsonSchemaOf, RULE_FAILED } from './openapi.entities';

/** An argument's JSON: as an entity property of that type, a date-time without offset. */
function argumentSchema(type: ArgumentType): SchemaObject {
  if (type === 'datetime') {
    return {
      type: 'string',
      pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$',
      description: 'YYYY-MM-DDThh:mm:ss, read as UTC',
    };
  }
  return jsonSchemaOf(type);
}

/** OpenAPI 3.0 takes no empty `required`. */
function requiredOf(args: { name: string; required: boolean }[]): { required?: string[] } {
  const required = args.filter((a) => a.required).map((a) => a.name);
  return required.length > 0 ? { required } : {};
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
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: Object.fromEntries(
                    method.arguments.map((a) => [a.name, argumentSchema(a.type)]),
                  ),
                  ...requiredOf(method.arguments),
                  additionalProperties: false,
                },
              },
            },
          },
          responses: {
            '200': {
              description: "The method's result object; any other value as {result}",
              content: {
                'application/json': { schema: { type: 'object', additionalProperties: true } },
              },
            },
            '400': errorResponse('An argument missing, unknown or of the wrong type'),
            '401': errorResponse('Not authenticated'),
            '403': errorResponse('The caller lacks what the method needs'),
            '404': errorResponse('A record the method names is missing or beyond reach'),
            '424': RULE_FAILED,
          },
        },
      };
    }
  }
  return paths;
}

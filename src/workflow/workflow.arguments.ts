import { BadRequestException } from '@nestjs/common';
import { coerceValue } from '../model/property-value';
import { CAST_TYPES, PropertyDefinition, PropertyType } from '../model/entity-type';
import { ArgumentDefinition } from './workflow.decorators';
import { WorkflowMethodDefinition } from './workflow.registry';

/** A date-time argument: `YYYY-MM-DDThh:mm:ss`, read as UTC. */
export const ARGUMENT_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

/**
 * The method's arguments from the request body (spec 4.4): one member per argument,
 * each checked against its declared type. A decimal stays an exact string, a date-time
 * (`YYYY-MM-DDThh:mm:ss`, read as UTC) becomes a Date; an optional argument left out
 * (or null) is undefined.
 */
export function bindArguments(method: WorkflowMethodDefinition, body: unknown): unknown[] {
  const path = `${method.workflow}.${method.name}`;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new BadRequestException(
      `The body must be a JSON object with one member per argument of ${path}`,
    );
  }
  const members = body as Record<string, unknown>;
  const names = method.arguments.map((a) => a.name);
  const unknown = Object.keys(members).find((key) => !names.includes(key));
  if (unknown !== undefined) {
    const takes = names.length ? `it takes ${names.join(', ')}` : 'it takes none';
    throw new BadRequestException(`${path} has no argument "${unknown}" (${takes})`);
  }
  return method.arguments.map((argument) => {
    const value = members[argument.name];
    if (value === undefined || value === null) {
      if (argument.optional) return undefined;
      throw new BadRequestException(`Argument "${argument.name}" of ${path} is required`);
    }
    return argumentValue(argument, value, path);
  });
}

function argumentValue(argument: ArgumentDefinition, value: unknown, path: string): unknown {
  const refuse = (expected: string) =>
    new BadRequestException(
      `Argument "${argument.name}" of ${path} must be ${expected}, not ${JSON.stringify(value)}`,
    );
  switch (argument.type) {
    case 'string':
      if (typeof value !== 'string') throw refuse('a string');
      return value;
    case 'integer':
      if (!Number.isSafeInteger(value)) throw refuse('an integer');
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw refuse('true or false');
      return value;
    case 'decimal': {
      // The entity API's decimal rule, with no precision: an exact string.
      const coerced = coerceValue(DECIMAL_PROPERTY, value);
      if ('problem' in coerced) throw refuse('a decimal number or a string of one, e.g. "12.50"');
      return coerced.value;
    }
    case 'datetime': {
      // The entity API's check of real calendar days and times, at UTC.
      const coerced =
        typeof value === 'string' && ARGUMENT_DATETIME.test(value)
          ? coerceValue(DATETIME_PROPERTY, `${value}Z`)
          : { problem: 'format' };
      if ('problem' in coerced) throw refuse('a date-time YYYY-MM-DDThh:mm:ss');
      return new Date(coerced.value as string);
    }
  }
}

/** An argument as the entity API's value rules see it: required, no length or precision. */
function argumentProperty(type: PropertyType): PropertyDefinition {
  const castType = CAST_TYPES[type];
  return {
    name: 'argument',
    label: 'Argument',
    type,
    castType,
    nullable: false,
    required: true,
    origin: 'client',
    hidden: false,
    secured: false,
  };
}

const DATETIME_PROPERTY = argumentProperty('datetime');
const DECIMAL_PROPERTY = argumentProperty('decimal');

import type { WorkflowArgument } from '../api/workflows';

/** What an argument's input holds: its text, or a checkbox's state. */
export type ArgumentInputs = Record<string, string | boolean>;

const WHOLE = /^-?\d+$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;
/** A datetime-local input's value, with or without seconds. */
const LOCAL_DATETIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?$/;

/**
 * The body of a workflow call (spec 4.4) from a method's inputs, or what is wrong with
 * them by argument: integers as numbers, decimals as exact strings, date-times as
 * `YYYY-MM-DDThh:mm:ss` (UTC, as the server reads them). A blank optional one is left out.
 */
export function argumentsOf(
  declared: WorkflowArgument[],
  inputs: ArgumentInputs,
): { body: Record<string, unknown> } | { problems: Record<string, string> } {
  const body: Record<string, unknown> = {};
  const problems: Record<string, string> = {};
  for (const argument of declared) {
    const input = inputs[argument.name];
    if (typeof input === 'boolean' || argument.type === 'boolean') {
      body[argument.name] = input === true;
      continue;
    }
    const text = (input ?? '').trim();
    if (text === '') {
      if (argument.required) problems[argument.name] = 'Required';
      continue;
    }
    const value = valueOf(argument.type, argument.type === 'string' ? (input ?? '') : text);
    if (value === undefined) problems[argument.name] = EXPECTED[argument.type];
    else body[argument.name] = value;
  }
  return Object.keys(problems).length > 0 ? { problems } : { body };
}

const EXPECTED: Record<WorkflowArgument['type'], string> = {
  string: 'Expected text',
  integer: 'Expected a whole number',
  decimal: 'Expected a number such as 12.50',
  datetime: 'Expected a date and time',
  boolean: 'Expected yes or no',
};

function valueOf(type: WorkflowArgument['type'], text: string): unknown {
  switch (type) {
    case 'integer': {
      const number = Number(text);
      return WHOLE.test(text) && Number.isSafeInteger(number) ? number : undefined;
    }
    case 'decimal':
      return DECIMAL.test(text) ? text : undefined;
    case 'datetime':
      if (!LOCAL_DATETIME.test(text)) return undefined;
      return text.length === 16 ? `${text}:00` : text;
    default:
      return text;
  }
}

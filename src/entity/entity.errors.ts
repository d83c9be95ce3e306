import { HttpException, HttpStatus } from '@nestjs/common';
import { MethodNotAllowedException } from '../http/http-errors';

export const HOOK_EVENTS = ['onBeforeInsert', 'onBeforeUpdate', 'onBeforeDelete'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export interface RuleViolation {
  propertyName?: string;
  childEntityName?: string;
  childPropertyName?: string;
  childEntityIndex?: number;
}

/**
 * Thrown by a hook when a business rule fails. A child's hook names its own property;
 * the engine moves that to `childPropertyName` and fills in the child's name and index.
 */
export class BusinessRuleError extends Error {
  constructor(
    readonly detail: string,
    readonly violation: RuleViolation = {},
  ) {
    super(detail);
  }
}

/** Spec 2.4: the validation error record, status 424. */
export class HookFailedException extends HttpException {
  constructor(eventName: HookEvent, entityName: string, error: BusinessRuleError) {
    super(
      { eventName, entityName, ...error.violation, detail: error.detail },
      HttpStatus.FAILED_DEPENDENCY,
    );
  }
}

/** A path segment as a hint may repeat it: a name or key as they are spelt, else its placeholder. */
const shown = (segment: string, placeholder: string, form: RegExp) =>
  form.test(segment) && segment.length <= 63 ? segment : placeholder;

/** GET (a list), PUT, PATCH or DELETE of /rest/entity/{name}. */
export function typeMethodNotAllowed(method: string, name: string): MethodNotAllowedException {
  const type = shown(name, '{name}', /^[a-z_][a-z0-9_]*$/);
  const hint =
    method === 'GET'
      ? `lists are FETCH queries: POST /rest/fetch with a text/plain body such as "FETCH ${type} (key) LIMIT 50"`
      : `records are created by POST /rest/entity/${type}, changed (POST) and deleted at /rest/entity/${type}/{key}`;
  return new MethodNotAllowedException(method, ['POST'], hint);
}

/** PUT or PATCH of /rest/entity/{name}/{key}. */
export function recordMethodNotAllowed(
  method: string,
  name: string,
  key: string,
): MethodNotAllowedException {
  const path = `/rest/entity/${shown(name, '{name}', /^[a-z_][a-z0-9_]*$/)}/${shown(key, '{key}', /^\d+$/)}`;
  return new MethodNotAllowedException(
    method,
    ['GET', 'POST', 'DELETE'],
    `updates are POST to ${path}, with the properties to change (the others stay as they are)`,
  );
}

import { HttpException, HttpStatus } from '@nestjs/common';

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

import { Injectable, SetMetadata } from '@nestjs/common';
import type { Action } from '../access/access.depth';

export const WORKFLOW = 'atrium:workflow';
export const WORKFLOW_METHOD = 'atrium:workflow-method';

/** The JSON types an argument may have (spec 4.4); `datetime` is `YYYY-MM-DDThh:mm:ss`. */
export const ARGUMENT_TYPES = ['string', 'integer', 'decimal', 'datetime', 'boolean'] as const;
export type ArgumentType = (typeof ARGUMENT_TYPES)[number];

export interface ArgumentDefinition {
  name: string;
  type: ArgumentType;
  optional?: boolean;
}

export interface WorkflowMethodOptions {
  /** The name in the path; the method's own name by default. */
  name?: string;
  /**
   * The arguments, in the order the method takes them (a WorkflowContext follows them).
   * Declared here because TypeScript erases parameter names.
   */
  arguments?: ArgumentDefinition[];
  /** `admin`: only administrators may run it (403 for others). */
  access?: 'everyone' | 'admin';
  /**
   * What the caller's roles must grant, at any depth: an action per entity type, e.g.
   * `{ invoice: 'write' }` (403 otherwise). What the method then reads and writes through
   * its ScopedData is still limited to the records the caller reaches.
   */
  requires?: Record<string, Action>;
  /** Roles of which the caller must hold one (administrators need none). */
  roles?: string[];
}

/** A Nest provider whose decorated methods run as `POST /rest/workflow/{name}/{method}`. */
export function Workflow(name: string): ClassDecorator {
  return (target) => {
    SetMetadata(WORKFLOW, name)(target);
    Injectable()(target);
  };
}

/** Exposes a method of a @Workflow provider; it runs in one transaction. */
export function WorkflowMethod(options: WorkflowMethodOptions = {}): MethodDecorator {
  return SetMetadata(WORKFLOW_METHOD, options);
}

import { getJson, jsonBody } from './http';
import { callInStatementSlot } from './statement-slots';

export interface WorkflowArgument {
  name: string;
  type: 'string' | 'integer' | 'decimal' | 'datetime' | 'boolean';
  required: boolean;
}

export interface WorkflowInfo {
  name: string;
  methods: { name: string; arguments: WorkflowArgument[] }[];
}

export const workflows = () => getJson<WorkflowInfo[]>('/rest/workflow');

export async function runWorkflow(
  workflow: string,
  method: string,
  args: Record<string, unknown>,
): Promise<unknown> {
  const path = `/rest/workflow/${encodeURIComponent(workflow)}/${encodeURIComponent(method)}`;
  return (await callInStatementSlot(path, jsonBody('POST', args))).json();
}

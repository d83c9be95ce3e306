import { errorOf, getJson, jsonBody, send } from './http';
import { inStatementSlot } from './statement-slots';

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
  const response = await inStatementSlot(() => send(path, jsonBody('POST', args)));
  if (!response.ok) throw await errorOf(response);
  return response.json();
}

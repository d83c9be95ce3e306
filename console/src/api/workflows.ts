import { getJson, jsonBody } from './http';

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

export const runWorkflow = (workflow: string, method: string, args: Record<string, unknown>) =>
  getJson<unknown>(
    `/rest/workflow/${encodeURIComponent(workflow)}/${encodeURIComponent(method)}`,
    jsonBody('POST', args),
  );

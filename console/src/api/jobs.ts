import { call, getJson } from './http';

export interface FailedJob {
  id: string;
  queue: string;
  error: string | null;
  attempts: number;
  createdOn: string;
  failedAt: string | null;
}

export const failedJobs = () => getJson<FailedJob[]>('/rest/jobs/failed');

export async function retryJob(id: string): Promise<void> {
  await call(`/rest/jobs/failed/${id}/retry`, { method: 'POST' });
}

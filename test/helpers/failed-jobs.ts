import type { Test } from 'supertest';
import { FAILED_JOBS_LIMIT } from '../../src/events/jobs.service';

/** A dead letter as GET /rest/jobs/failed lists it. */
export interface FailedJob {
  id: string;
  jobId: string | null;
  queue: string;
  error: string | null;
  attempts: number;
}

/**
 * The dead letter of the job `jobId` among every page of GET /rest/jobs/failed (`get` sends
 * a GET to a path as an administrator); undefined while there is none. Other suites of the
 * run may leave many in a database they share, so every page is read.
 */
export async function findFailedJob(
  get: (path: string) => Test,
  jobId: string,
): Promise<FailedJob | undefined> {
  let after = '';
  for (;;) {
    const { body } = await get(`/rest/jobs/failed?limit=${FAILED_JOBS_LIMIT}${after}`).expect(200);
    const page = body as FailedJob[];
    const found = page.find((job) => job.jobId === jobId);
    if (found || page.length < FAILED_JOBS_LIMIT) return found;
    after = `&after=${page[page.length - 1].id}`;
  }
}

import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { tenantOf } from '../access/access.tenant';
import { Identity } from '../common/identity';
import { DeadJob, JobQueue } from '../queue/job-queue.service';

/** The most failed jobs one page lists. */
export const FAILED_JOBS_LIMIT = 200;

/**
 * Jobs that failed for good (every attempt made), as the organization whose jobs they are
 * sees them in the queue's dead letters, and their retry: for holders of `manage-jobs` (the
 * routes require it).
 */
@Injectable()
export class JobsService {
  constructor(private readonly queue: JobQueue) {}

  /** A page, oldest first: the next is the one after its last job's id. */
  async failed(identity: Identity, limit: number, after?: string): Promise<DeadJob[]> {
    if (limit < 1 || limit > FAILED_JOBS_LIMIT) {
      throw new BadRequestException(
        `limit must be between 1 and ${FAILED_JOBS_LIMIT}, not ${limit}`,
      );
    }
    const page = await this.queue.deadJobs(tenantOf(identity), limit, after);
    if (!page) throw new BadRequestException(`after: no failed job ${after} of your organization`);
    return page;
  }

  /** Tries the job once more, at once. */
  async retry(identity: Identity, id: string): Promise<void> {
    if (!(await this.queue.retryDead(tenantOf(identity), id))) {
      throw new NotFoundException(`No failed job ${id} of your organization`);
    }
  }
}

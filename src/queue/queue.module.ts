import { Global, Module } from '@nestjs/common';
import { JobQueue } from './job-queue.service';
import { JobsRepository } from './jobs.repository';

/**
 * The job queue on the app's PostgreSQL (pg-boss): jobs sent in a write's transaction,
 * workers, schedules. Global: hooks and workflows send jobs through ScopedData, and the
 * events module works the queues.
 */
@Global()
@Module({
  providers: [JobQueue, JobsRepository],
  exports: [JobQueue],
})
export class QueueModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChangeFeedRepository } from './change-feed.repository';
import { ChangeLogEntry } from './change-log.entity';
import { ChangeLogPartitions } from './change-log.partitions';
import { ChangeLogRepository } from './change-log.repository';
import { ChangeLog } from './change-log.service';

/**
 * The change log: one entry per row written and per security event, in the write's own
 * transaction; the history, the audit and the record as it was are read from it.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ChangeLogEntry])],
  providers: [ChangeLog, ChangeLogRepository, ChangeLogPartitions, ChangeFeedRepository],
  exports: [ChangeLog, ChangeLogRepository, ChangeFeedRepository],
})
export class ChangesModule {}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { IRateLimiterPostgresOptions, RateLimiterPostgres } from 'rate-limiter-flexible';
import { DataSource } from 'typeorm';
import { GenerateSql } from '../database/generate-sql';
import { Sql } from '../database/sql.service';

/** The table of the LoginLimit migration. */
const TABLE = 'login_limit';

/**
 * Counters of failed logins in PostgreSQL (`login_limit`), shared by every instance:
 * rate-limiter-flexible's, which writes its own SQL on the app's pool.
 */
@Injectable()
export class LoginLimitRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sql: Sql,
  ) {}

  /** Drops the counters that expired before `before` (ms since the epoch, as stored). */
  @GenerateSql({ params: [0] })
  async sweep(before: number): Promise<void> {
    await this.sql.run(`DELETE FROM ${TABLE} WHERE expire < $1`, [before]);
  }

  /** A counter under `keyPrefix`, counting `points` within the window `duration` (s). */
  limiter(
    options: Required<Pick<IRateLimiterPostgresOptions, 'keyPrefix' | 'points' | 'duration'>>,
  ): RateLimiterPostgres {
    return new RateLimiterPostgres({
      storeClient: this.dataSource,
      storeType: 'typeorm',
      tableName: TABLE,
      tableCreated: true,
      clearExpiredByTimeout: false,
      ...options,
    });
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { IRateLimiterPostgresOptions, RateLimiterPostgres } from 'rate-limiter-flexible';
import { DataSource } from 'typeorm';

/** The table of the LoginLimit migration. */
const TABLE = 'login_limit';

/**
 * Counters of failed logins in PostgreSQL (`login_limit`), shared by every instance:
 * rate-limiter-flexible's, which writes its own SQL on the app's pool.
 */
@Injectable()
export class LoginLimitRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A counter under `keyPrefix`, counting `points` within the window `duration` (s). */
  limiter(
    options: Pick<IRateLimiterPostgresOptions, 'clearExpiredByTimeout'> &
      Required<Pick<IRateLimiterPostgresOptions, 'keyPrefix' | 'points' | 'duration'>>,
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

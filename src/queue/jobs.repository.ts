import { Injectable } from '@nestjs/common';
import { Sql } from '../database/sql.service';
import { Transaction } from '../database/transaction';

/**
 * pg-boss's way to the database inside the app's transactions. pg-boss owns its tables and
 * its SQL; the app reaches them through its API only (JobQueue).
 */
@Injectable()
export class JobsRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * pg-boss's way to the database for a job sent in `tx`: its statements then go with the
   * write's, and commit or roll back with it.
   */
  executorIn(tx: Transaction): ReturnType<Sql['within']> {
    return this.sql.within(tx);
  }
}

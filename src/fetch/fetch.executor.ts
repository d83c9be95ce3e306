import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Environment } from '../config/environment';
import { translateQueryError } from '../http/database-refusals';
import { sendStatement } from '../database/statements';
import { Transaction } from '../database/transaction';
import { StatementSlots } from '../http/statement-slots';
import { CompiledFetch } from './fetch.compiler';

/** Runs a compiled FETCH statement: the one place FETCH sends SQL. */
@Injectable()
export class FetchExecutor {
  private readonly timeoutMs: number;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly slots: StatementSlots,
    config: ConfigService<Environment, true>,
  ) {
    this.timeoutMs = config.get('STATEMENT_TIMEOUT_MS', { infer: true });
  }

  /**
   * The rows of `compiled`, inside `tx` when given (a workflow's, whose turn is the
   * query's), else on a pooled connection in one of `userKey`'s statement slots.
   */
  run(
    compiled: CompiledFetch,
    userKey: number,
    tx?: Transaction,
  ): Promise<Record<string, unknown>[]> {
    if (tx) return this.execute(compiled, tx);
    return this.slots.run(userKey, () => this.execute(compiled, undefined));
  }

  /** Not prepared: a client's queries are as many as clients write. */
  private async execute(
    compiled: CompiledFetch,
    tx: Transaction | undefined,
  ): Promise<Record<string, unknown>[]> {
    try {
      const { sql, params } = compiled;
      return (
        await sendStatement<Record<string, unknown>>(this.dataSource, tx, sql, params, undefined)
      ).rows;
    } catch (error) {
      throw translateQueryError(error, this.timeoutMs);
    }
  }
}

import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Environment } from '../config/environment';
import { translateQueryError } from '../http/database-refusals';
import { managerOf, Transaction } from '../database/transaction';
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
    if (tx) return this.execute(compiled, managerOf(tx));
    return this.slots.run(userKey, () => this.execute(compiled, this.dataSource.manager));
  }

  private async execute(
    compiled: CompiledFetch,
    manager: EntityManager,
  ): Promise<Record<string, unknown>[]> {
    try {
      return await manager.query(compiled.sql, compiled.params);
    } catch (error) {
      throw translateQueryError(error, this.timeoutMs);
    }
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sendStatement, StatementResult } from './statements';
import { Transaction } from './transaction';

/**
 * How the repositories send their SQL: text with `$n` placeholders and its values, on the
 * connection of a transaction when given one, else on a pooled one, as prepared
 * statements (statements.ts; the texts are the repositories' own). Rows come back as
 * PostgreSQL names them (aliases make them the caller's shape), int8 as numbers
 * (pg-types.ts).
 */
@Injectable()
export class Sql {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The rows of a SELECT, or of an INSERT's RETURNING. */
  async rows<T>(text: string, values: unknown[] = [], tx?: Transaction): Promise<T[]> {
    return (await this.send<T>(text, values, tx)).rows;
  }

  /** The first row of a SELECT or of an INSERT's RETURNING, if any. */
  async row<T>(text: string, values: unknown[] = [], tx?: Transaction): Promise<T | undefined> {
    return (await this.rows<T>(text, values, tx))[0];
  }

  /** What an UPDATE or DELETE changed: its RETURNING rows and how many rows. */
  changed<T>(text: string, values: unknown[] = [], tx?: Transaction): Promise<StatementResult<T>> {
    return this.send<T>(text, values, tx);
  }

  /** A statement run for what it does. */
  async run(text: string, values: unknown[] = [], tx?: Transaction): Promise<void> {
    await this.send(text, values, tx);
  }

  /**
   * Sends another library's statements inside `tx` as the repositories' are sent (the job
   * queue's, whose jobs then commit or roll back with the write that asked for them).
   */
  within(tx: Transaction): {
    executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  } {
    return { executeSql: (text, values = []) => this.send(text, values, tx) };
  }

  /** The one call that sends a statement (the SQL snapshot tool records them here). */
  protected send<T>(
    text: string,
    values: unknown[],
    tx?: Transaction,
  ): Promise<StatementResult<T>> {
    return sendStatement<T>(this.dataSource, tx, text, values, 'fixed');
  }
}

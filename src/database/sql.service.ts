import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { managerOf, Transaction } from './transaction';

/**
 * How the repositories send their SQL: text with `$n` placeholders and its values, on the
 * connection of a transaction when given one, else on a pooled one. Rows come back as
 * PostgreSQL names them (aliases make them the caller's shape), int8 as numbers
 * (pg-types.ts).
 */
@Injectable()
export class Sql {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The rows of a SELECT, or of an INSERT's RETURNING. */
  rows<T>(text: string, values: unknown[] = [], tx?: Transaction): Promise<T[]> {
    return this.send(text, values, tx) as Promise<T[]>;
  }

  /** The first row of a SELECT or of an INSERT's RETURNING, if any. */
  async row<T>(text: string, values: unknown[] = [], tx?: Transaction): Promise<T | undefined> {
    return (await this.rows<T>(text, values, tx))[0];
  }

  /** What an UPDATE or DELETE changed: its RETURNING rows and how many rows. */
  async changed<T>(
    text: string,
    values: unknown[] = [],
    tx?: Transaction,
  ): Promise<{ rows: T[]; count: number }> {
    // TypeORM answers an UPDATE or DELETE with [rows, count].
    const [rows, count] = (await this.send(text, values, tx)) as [T[], number];
    return { rows, count };
  }

  /** A statement run for what it does. */
  async run(text: string, values: unknown[] = [], tx?: Transaction): Promise<void> {
    await this.send(text, values, tx);
  }

  /** The one call that sends a statement (the SQL snapshot tool records them here). */
  protected send(text: string, values: unknown[], tx?: Transaction): Promise<unknown> {
    return (tx ? managerOf(tx) : this.dataSource.manager).query(text, values);
  }
}

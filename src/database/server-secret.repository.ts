import { Injectable } from '@nestjs/common';
import { GenerateSql } from './generate-sql';
import { Sql } from './sql.service';

/** The SQL of `server_secret`: named secrets, made on first use. */
@Injectable()
export class ServerSecretRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * The secret named `name`, `candidate` when there was none: one statement whoever comes
   * first, the insert wins and a racing one reads its value.
   */
  @GenerateSql({ params: ['cursor', 'candidate'] })
  async claim(name: string, candidate: string): Promise<string> {
    const row = await this.sql.row<{ value: string }>(
      `INSERT INTO server_secret (name, value) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING value`,
      [name, candidate],
    );
    return row!.value;
  }
}

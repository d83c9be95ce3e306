import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PromiseCache } from '../common/promise-cache';
import { newSecret } from '../common/secrets';

/**
 * Named secrets kept in the database, made on first use, so that every instance on one
 * database signs and checks with the same key (a FETCH cursor made by one instance is
 * read by another) and a restart keeps them.
 */
@Injectable()
export class ServerSecrets {
  private readonly cache = new PromiseCache<Buffer>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  get(name: string): Promise<Buffer> {
    return this.cache.get(name, () => this.load(name));
  }

  /** One statement whoever comes first: the insert wins, a racing one reads its value. */
  private async load(name: string): Promise<Buffer> {
    const [row]: { value: string }[] = await this.dataSource.query(
      `INSERT INTO server_secret (name, value) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING value`,
      [name, newSecret()],
    );
    return Buffer.from(row.value, 'base64url');
  }
}

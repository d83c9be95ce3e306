import { Injectable } from '@nestjs/common';
import { GenerateSql, IN_TRANSACTION } from '../../database/generate-sql';
import { Sql } from '../../database/sql.service';
import { Transaction } from '../../database/transaction';

/**
 * The SQL of `file_chunk`: bytes in PostgreSQL, a row per chunk, keyed by the sha256 of
 * the whole content (or, while it uploads, by an upload key of its own).
 */
@Injectable()
export class FileChunkRepository {
  constructor(private readonly sql: Sql) {}

  @GenerateSql({ params: ['upload:1', 0, Buffer.from('abc'), IN_TRANSACTION] })
  async insert(blobKey: string, seq: number, data: Buffer, tx: Transaction): Promise<void> {
    await this.sql.run(
      `INSERT INTO file_chunk (blob_key, seq, data) VALUES ($1, $2, $3)`,
      [blobKey, seq, data],
      tx,
    );
  }

  /**
   * Files the upload's chunks under their content's sha256, unless that content is
   * stored already (then they go). Two uploads of the same bytes take turns: the second
   * finds the first's chunks.
   */
  @GenerateSql({ params: ['upload:1', 'sha256', IN_TRANSACTION] })
  async fileUnder(uploadKey: string, sha256: string, tx: Transaction): Promise<void> {
    await this.sql.run(`SELECT pg_advisory_xact_lock(hashtext($1))`, [sha256], tx);
    const present = await this.sql.rows(
      `SELECT 1 FROM file_chunk WHERE blob_key = $1 LIMIT 1`,
      [sha256],
      tx,
    );
    if (present.length > 0) {
      await this.sql.run(`DELETE FROM file_chunk WHERE blob_key = $1`, [uploadKey], tx);
    } else {
      await this.sql.run(
        `UPDATE file_chunk SET blob_key = $1 WHERE blob_key = $2`,
        [sha256, uploadKey],
        tx,
      );
    }
  }

  /** The bytes of one chunk of a content. */
  @GenerateSql({ params: ['sha256', 0] })
  async read(sha256: string, seq: number): Promise<Buffer | undefined> {
    const row = await this.sql.row<{ data: Buffer }>(
      `SELECT data FROM file_chunk WHERE blob_key = $1 AND seq = $2`,
      [sha256, seq],
    );
    return row?.data;
  }
}

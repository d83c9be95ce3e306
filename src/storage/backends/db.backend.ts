import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { DataSource, EntityManager } from 'typeorm';
import { Sha256Hasher } from './sha256.hasher';
import { ByteRange, StorageBackend, StoredBytes } from './storage-backend';

/** Fixed for good: a byte's chunk is its offset divided by it. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * Bytes in PostgreSQL (`file_chunk`), 1 MiB a row, so that server instances share files
 * without a shared disk. Written in the transaction that records the version: an upload
 * cut short leaves nothing. Chunks are keyed by the sha256 of the whole, so identical
 * content is stored once.
 */
@Injectable()
export class DbStorageBackend implements StorageBackend {
  readonly driver = 'db';
  readonly transactional = true;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly hasher: Sha256Hasher,
  ) {}

  /** `tx`: the upload's transaction (the backend is transactional: always given). */
  async write(source: Readable, tx: EntityManager): Promise<StoredBytes> {
    const uploadKey = `upload:${randomUUID()}`;
    const { step, result } = this.hasher.hashing();
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let seq = 0;
    const flush = async () => {
      if (pendingBytes === 0) return;
      await tx.query(`INSERT INTO file_chunk (blob_key, seq, data) VALUES ($1, $2, $3)`, [
        uploadKey,
        seq++,
        Buffer.concat(pending, pendingBytes),
      ]);
      pending = [];
      pendingBytes = 0;
    };
    for await (const chunk of step(source)) {
      let rest: Buffer = chunk;
      while (pendingBytes + rest.length >= CHUNK_BYTES) {
        const take = CHUNK_BYTES - pendingBytes;
        pending.push(rest.subarray(0, take));
        pendingBytes += take;
        rest = rest.subarray(take);
        await flush(); // waits for the database: the upload waits with it
      }
      if (rest.length > 0) {
        pending.push(rest);
        pendingBytes += rest.length;
      }
    }
    await flush();
    const stored = await result();
    // Two uploads of the same bytes take turns; the second finds the first's chunks.
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [stored.sha256]);
    const present: unknown[] = await tx.query(
      `SELECT 1 FROM file_chunk WHERE blob_key = $1 LIMIT 1`,
      [stored.sha256],
    );
    if (present.length > 0) {
      await tx.query(`DELETE FROM file_chunk WHERE blob_key = $1`, [uploadKey]);
    } else {
      await tx.query(`UPDATE file_chunk SET blob_key = $1 WHERE blob_key = $2`, [
        stored.sha256,
        uploadKey,
      ]);
    }
    return stored;
  }

  read(sha256: string, size: number, range?: ByteRange): Promise<Readable> {
    const { start, end } = range ?? { start: 0, end: size - 1 };
    const dataSource = this.dataSource;
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let seq = Math.floor(start / CHUNK_BYTES); seq * CHUNK_BYTES <= end; seq++) {
        const [row] = await dataSource.query<{ data: Buffer }[]>(
          `SELECT data FROM file_chunk WHERE blob_key = $1 AND seq = $2`,
          [sha256, seq],
        );
        const offset = seq * CHUNK_BYTES;
        yield row.data.subarray(Math.max(0, start - offset), end - offset + 1);
      }
    }
    return Promise.resolve(Readable.from(size === 0 ? [] : chunks()));
  }
}

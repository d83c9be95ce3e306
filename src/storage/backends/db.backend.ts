import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { Transaction } from '../../database/transaction';
import { FileChunkRepository } from './file-chunk.repository';
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
    private readonly chunks: FileChunkRepository,
    private readonly hasher: Sha256Hasher,
  ) {}

  /** `tx`: the upload's transaction (the backend is transactional: always given). */
  async write(source: Readable, tx: Transaction): Promise<StoredBytes> {
    const uploadKey = `upload:${randomUUID()}`;
    const { step, result } = this.hasher.hashing();
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let seq = 0;
    const flush = async () => {
      if (pendingBytes === 0) return;
      await this.chunks.insert(uploadKey, seq++, Buffer.concat(pending, pendingBytes), tx);
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
    await this.chunks.fileUnder(uploadKey, stored.sha256, tx);
    return stored;
  }

  read(sha256: string, size: number, range?: ByteRange): Promise<Readable> {
    const { start, end } = range ?? { start: 0, end: size - 1 };
    const stored = this.chunks;
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let seq = Math.floor(start / CHUNK_BYTES); seq * CHUNK_BYTES <= end; seq++) {
        const data = (await stored.read(sha256, seq))!;
        const offset = seq * CHUNK_BYTES;
        yield data.subarray(Math.max(0, start - offset), end - offset + 1);
      }
    }
    return Promise.resolve(Readable.from(size === 0 ? [] : chunks()));
  }
}

import { Readable } from 'node:stream';
import type { StorageDriver } from '../../config/environment';
import type { Transaction } from '../../database/transaction';

export interface StoredBytes {
  sha256: string;
  size: number;
}

/** Inclusive byte offsets, as HTTP ranges are. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where file versions keep their bytes. Content-addressed by sha256, so identical content
 * is stored once. Another backend (S3-compatible, say) implements the same three things.
 */
export interface StorageBackend {
  readonly driver: StorageDriver;
  /**
   * Whether `write` joins the transaction that records the version (bytes in the
   * database), or makes the bytes durable before that transaction opens (a file system).
   */
  readonly transactional: boolean;
  /** Streams the bytes in, never holding them whole; resolves once they are durable. */
  write(source: Readable, tx?: Transaction): Promise<StoredBytes>;
  /** The stored bytes of `sha256` (`size` long), or the range of them. */
  read(sha256: string, size: number, range?: ByteRange): Promise<Readable>;
}

/** The injection token of the backends, by driver. */
export const STORAGE_BACKENDS = Symbol('STORAGE_BACKENDS');

import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Worker } from 'node:worker_threads';
import { StoredBytes } from './storage-backend';

// The worker answers every message for a stream in order: an ack, or the digest at the end.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const hashes = new Map();
parentPort.on('message', ({ id, bytes, end, abort }) => {
  if (abort) return void hashes.delete(id);
  let hash = hashes.get(id);
  if (hash === undefined) hashes.set(id, (hash = createHash('sha256')));
  hash.update(new Uint8Array(bytes));
  if (!end) return void parentPort.postMessage({ id });
  hashes.delete(id);
  parentPort.postMessage({ id, sha256: hash.digest('hex') });
});`;

/** Bytes handed to the worker at a time: one copy and one message per MiB, not per chunk. */
const BATCH_BYTES = 1024 * 1024;
/** Batches a stream may have waiting in the worker before the upload waits for it. */
const MAX_IN_FLIGHT = 4;

interface Reply {
  id: number;
  sha256?: string;
}

interface Waiter {
  resolve: (reply: Reply) => void;
  reject: (error: Error) => void;
}

export interface Hashing {
  /** A pass-through step: hands on every chunk as it comes, hashing it on the side. */
  step: (chunks: AsyncIterable<Buffer>) => AsyncGenerator<Buffer>;
  /** Once `step` has finished: the sha256 and size of what streamed by. */
  result: () => Promise<StoredBytes>;
}

/**
 * sha256 on a worker thread. Hashing costs about a millisecond per MiB on the event loop,
 * which made it the largest part of an upload (bench/storage.js: 229 MB/s hashing inline,
 * 347 MB/s without hashing); on the worker it runs beside the upload on another core.
 */
@Injectable()
export class Sha256Hasher implements OnModuleDestroy {
  private worker?: Worker;
  private nextId = 0;
  private readonly waiters = new Map<number, Waiter[]>();

  hashing(): Hashing {
    const id = this.nextId++;
    const replies: Promise<Reply>[] = [];
    let size = 0;
    const send = (batch: Buffer[], end: boolean) => {
      const bytes = pack(batch);
      replies.push(this.request({ id, bytes, end }, [bytes]));
    };
    const abort = () => this.abort(id);
    async function* step(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
      let batch: Buffer[] = [];
      let batchBytes = 0;
      let ended = false;
      try {
        for await (const chunk of chunks) {
          batch.push(chunk);
          batchBytes += chunk.length;
          size += chunk.length;
          if (batchBytes >= BATCH_BYTES) {
            send(batch, false);
            batch = [];
            batchBytes = 0;
            if (replies.length > MAX_IN_FLIGHT) await replies.shift();
          }
          yield chunk;
        }
        send(batch, true);
        ended = true;
      } finally {
        if (!ended) abort();
      }
    }
    const result = async () => {
      const answered = await Promise.all(replies);
      return { sha256: answered[answered.length - 1].sha256!, size };
    };
    return { step, result };
  }

  async onModuleDestroy(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.fail(worker, new Error('the server is stopping'));
    await worker.terminate();
  }

  private request(
    message: { id: number; bytes: ArrayBuffer; end: boolean },
    transfer: ArrayBuffer[],
  ): Promise<Reply> {
    const reply = new Promise<Reply>((resolve, reject) => {
      const queue = this.waiters.get(message.id) ?? [];
      queue.push({ resolve, reject });
      this.waiters.set(message.id, queue);
    });
    // An upload cut short never awaits its later replies; they must not crash the process.
    reply.catch(() => undefined);
    this.started().postMessage(message, transfer);
    return reply;
  }

  private abort(id: number): void {
    this.waiters.delete(id);
    this.worker?.postMessage({ id, abort: true });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.unref(); // an idle hasher does not keep the process alive
    worker.on('message', ({ id, sha256 }: Reply) => {
      const queue = this.waiters.get(id);
      queue?.shift()?.resolve({ id, sha256 });
      if (queue?.length === 0) this.waiters.delete(id);
    });
    worker.on('error', (error) => this.fail(worker, error));
    worker.on('exit', (code) =>
      this.fail(worker, new Error(`the sha256 worker exited with code ${code}`)),
    );
    this.worker = worker;
    return worker;
  }

  /** Fails every stream `worker` held; the next stream starts a new worker. */
  private fail(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    for (const queue of this.waiters.values()) for (const waiter of queue) waiter.reject(error);
    this.waiters.clear();
  }
}

/** The batch in memory of its own, which can move to the worker without a copy. */
function pack(chunks: Buffer[]): ArrayBuffer {
  const memory = new ArrayBuffer(chunks.reduce((total, chunk) => total + chunk.length, 0));
  const bytes = new Uint8Array(memory);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return memory;
}

import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { Sha256Hasher } from './sha256.hasher';

/** Streams `chunks` through a hashing step; what came out, and what the hasher said. */
async function hashThrough(hasher: Sha256Hasher, chunks: Buffer[]) {
  const { step, result } = hasher.hashing();
  const out: Buffer[] = [];
  for await (const chunk of step(Readable.from(chunks))) out.push(chunk);
  return { passed: Buffer.concat(out), ...(await result()) };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('Sha256Hasher', () => {
  let hasher: Sha256Hasher;
  beforeEach(() => (hasher = new Sha256Hasher()));
  afterEach(() => hasher.onModuleDestroy());

  it('passes every chunk on unchanged and hashes them all, over many batches', async () => {
    // Uneven chunks, about 5.5 MiB: several batches and a partial last one.
    const chunks = Array.from({ length: 90 }, (_, i) => randomBytes(64 * 1024 - i));
    const whole = Buffer.concat(chunks);
    const { passed, sha256: digest, size } = await hashThrough(hasher, chunks);
    expect(passed.equals(whole)).toBe(true);
    expect(digest).toBe(sha256(whole));
    expect(size).toBe(whole.length);
  });

  it('hashes nothing as the sha256 of the empty string', async () => {
    const { sha256: digest, size } = await hashThrough(hasher, []);
    expect(digest).toBe(sha256(Buffer.alloc(0)));
    expect(size).toBe(0);
  });

  it('keeps streams hashed at the same time apart', async () => {
    const inputs = Array.from({ length: 6 }, (_, i) => [
      randomBytes(700_000 + i),
      randomBytes(900_000),
      randomBytes(i * 1000),
    ]);
    const results = await Promise.all(inputs.map((chunks) => hashThrough(hasher, chunks)));
    results.forEach((result, i) => expect(result.sha256).toBe(sha256(Buffer.concat(inputs[i]))));
  });

  it('goes on hashing after a stream that failed part way', async () => {
    const failing = Readable.from(
      (async function* () {
        yield randomBytes(3 * 1024 * 1024);
        throw new Error('the client went away');
      })(),
    );
    const { step } = hasher.hashing();
    await expect(
      (async () => {
        for await (const _chunk of step(failing));
      })(),
    ).rejects.toThrow('the client went away');
    const bytes = randomBytes(2 * 1024 * 1024);
    expect((await hashThrough(hasher, [bytes])).sha256).toBe(sha256(bytes));
  });

  it('fails the streams a stopped worker held, and starts a new one for the next', async () => {
    const { step, result } = hasher.hashing();
    const passing = step(Readable.from([randomBytes(2 * 1024 * 1024)]));
    await passing.next(); // the first batch is with the worker
    await hasher.onModuleDestroy();
    while (!(await passing.next()).done);
    await expect(result()).rejects.toThrow('the server is stopping');
    const bytes = randomBytes(1024);
    expect((await hashThrough(hasher, [bytes])).sha256).toBe(sha256(bytes));
  });
});

import { ConfigService } from '@nestjs/config';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { FsStorageBackend } from './fs.backend';
import { Sha256Hasher } from './sha256.hasher';

describe('FsStorageBackend', () => {
  let dataDir: string;
  let hasher: Sha256Hasher;
  let backend: FsStorageBackend;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'atrium-fs-backend-'));
    hasher = new Sha256Hasher();
    const config = { get: () => dataDir } as unknown as ConfigService<never, true>;
    backend = new FsStorageBackend(config, hasher);
    await backend.onModuleInit();
  });

  afterEach(async () => {
    await hasher.onModuleDestroy();
    await rm(dataDir, { recursive: true, force: true });
  });

  // The temporary file is opened asynchronously, and the form can have failed already
  // (busboy destroys the file's stream when the body is cut short): its removal then raced
  // its creation, and an upload now and then left it behind.
  it('leaves no temporary file when the bytes have failed already, one upload after another', async () => {
    const failing = () =>
      new Readable({ read() {} }).destroy(new Error('The request was cut short'));
    for (let i = 0; i < 500; i++) {
      await expect(backend.write(failing())).rejects.toThrow('cut short');
    }
    expect(await readdir(join(dataDir, 'files', 'tmp'))).toEqual([]);
  });
});

import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import request from 'supertest';
import { FileChunkRepository } from '../../src/storage/backends/file-chunk.repository';
import { StorageService } from '../../src/storage/storage.service';
import { binaryBody } from './binary-body';
import { waitFor } from './postmaster';
import {
  apiKeyFor,
  apiKeyUser,
  createOrganization,
  createSecondTestApp,
  createTestApp,
  sessionOfNewUser,
  TestApp,
} from './test-app';

const MAX_UPLOAD_BYTES = 4 * 1024 * 1024;

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The e2e suite of /storage, run once per backend (storage-fs and storage-db). */
export function storageSuite(driver: 'fs' | 'db'): void {
  describe(`/storage on the ${driver} backend`, () => {
    let t: TestApp;
    let key: string;
    let dataDir: string;

    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'atr-files-'));
      t = await createTestApp({
        STORAGE_DRIVER: driver,
        DATA_DIR: dataDir,
        MAX_UPLOAD_BYTES: String(MAX_UPLOAD_BYTES),
      });
      ({ key } = await apiKeyUser(t));
    });
    afterAll(async () => {
      await t.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    const upload = (
      bytes: Buffer,
      options: { filename?: string; contentType?: string; id?: number; name?: string } = {},
      apiKey = key,
    ) => {
      const post = request(t.http).post('/storage').set('X-API-Key', apiKey);
      if (options.id !== undefined) post.field('id', String(options.id));
      if (options.name !== undefined) post.field('name', options.name);
      return post.attach('file', bytes, {
        filename: options.filename ?? 'data.bin',
        contentType: options.contentType ?? 'application/octet-stream',
      });
    };
    const download = (query: string, apiKey = key) =>
      request(t.http)
        .get(`/storage?${query}`)
        .set('X-API-Key', apiKey)
        .buffer(true)
        .parse(binaryBody);
    const versionRows = (name: string) =>
      t.dataSource.query(`SELECT 1 FROM file_version WHERE name = $1`, [name]);

    it('stores binary content and gives back every byte (201, then 200)', async () => {
      const bytes = Buffer.concat([
        Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
        randomBytes(3 * 1024 * 1024 + 17), // across several database chunks
      ]);
      const { body: stored } = await upload(bytes, { filename: 'blob.bin' }).expect(201);
      expect(stored).toEqual({
        id: expect.any(Number),
        version: 1,
        name: 'blob.bin',
        contentType: 'application/octet-stream',
        size: bytes.length,
        sha256: sha256(bytes),
        dateCreated: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      const response = await download(`id=${stored.id}`).expect(200);
      expect(Buffer.compare(response.body, bytes)).toBe(0);
      expect(response.headers).toMatchObject({
        'content-type': 'application/octet-stream',
        'content-length': String(bytes.length),
        etag: `"${sha256(bytes)}"`,
        'x-content-type-options': 'nosniff',
      });
    });

    it('adds versions to a file; the latest by default, any one by number', async () => {
      const first = Buffer.from('version one');
      const second = Buffer.from('version two, longer');
      const { body: v1 } = await upload(first, {
        filename: 'notes.txt',
        contentType: 'text/plain',
      });
      const { body: v2 } = await upload(second, { id: v1.id, name: 'notes-v2.txt' }).expect(201);
      expect(v2).toMatchObject({
        id: v1.id,
        version: 2,
        name: 'notes-v2.txt',
        size: second.length,
      });
      expect((await download(`id=${v1.id}`).expect(200)).body.toString()).toBe(second.toString());
      expect((await download(`id=${v1.id}&version=1`).expect(200)).body.toString()).toBe(
        first.toString(),
      );
      await download(`id=${v1.id}&version=3`).expect(404);
      const { body: versions } = await request(t.http)
        .get(`/storage/${v1.id}/versions`)
        .set('X-API-Key', key)
        .expect(200);
      expect(versions).toEqual([
        expect.objectContaining({ version: 1, name: 'notes.txt', contentType: 'text/plain' }),
        expect.objectContaining({ version: 2, name: 'notes-v2.txt', sha256: sha256(second) }),
      ]);
      expect(versions[0]).not.toHaveProperty('data');
    });

    it('logs a new file as created and each new version, the version rows under them', async () => {
      const { body: v1 } = await upload(Buffer.from('one'), { filename: 'log-v1.txt' }).expect(201);
      await upload(Buffer.from('two!'), { id: v1.id, name: 'log-v2.txt' }).expect(201);
      const { body: history } = await request(t.http)
        .get(`/rest/entity/file/${v1.id}/history`)
        .set('X-API-Key', key)
        .expect(200);
      expect(
        history.map((e: { operation: string; changes: object }) => [e.operation, e.changes]),
      ).toEqual([
        [
          'version_added',
          expect.objectContaining({
            latest_version: { old: 1, new: 2 },
            name: { new: 'log-v2.txt' },
          }),
        ],
        ['created', expect.objectContaining({ latest_version: { new: 1 } })],
      ]);
      const sizes = history.map(
        (e: { children: { entity: string; changes: { size: { new: number } } }[] }) =>
          e.children.map((c) => [c.entity, c.changes.size.new]),
      );
      expect(sizes).toEqual([[['file_version', 4]], [['file_version', 3]]]);
      const { body: then } = await request(t.http)
        .get(`/rest/entity/file/${v1.id}?asOf=${history[1].occurredAt}`)
        .set('X-API-Key', key)
        .expect(200);
      expect(then.properties).toMatchObject({ name: 'log-v1.txt', latest_version: 1 });
      expect(then.children.file_file_version).toHaveLength(1);
    });

    it('says attachment for download and inline for view, with an RFC 5987 name', async () => {
      const { body } = await upload(Buffer.from('%PDF-1.7'), {
        filename: 'résumé 2026.pdf',
        contentType: 'application/pdf',
      });
      const viewed = await download(`id=${body.id}&action=view`).expect(200);
      expect(viewed.headers['content-disposition']).toBe(
        `inline; filename="r_sum_ 2026.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%202026.pdf`,
      );
      const byDefault = await download(`id=${body.id}`).expect(200);
      expect(byDefault.headers['content-disposition']).toMatch(/^inline;/);
      const downloaded = await download(`id=${body.id}&action=download`).expect(200);
      expect(downloaded.headers['content-disposition']).toMatch(
        /^attachment; filename="r_sum_ 2026\.pdf"; filename\*=/,
      );
    });

    it.each([
      ['text/html', 'page.html', '<script>alert(document.cookie)</script>'],
      ['image/svg+xml', 'logo.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>'],
      ['application/javascript', 'app.js', 'fetch("/auth")'],
      ['application/xml', 'data.xml', '<?xml version="1.0"?><x/>'],
    ])('never serves %s inline from the API origin', async (contentType, filename, text) => {
      const { body } = await upload(Buffer.from(text), { filename, contentType });
      const response = await download(`id=${body.id}&action=view`).expect(200);
      expect(response.headers['content-disposition']).toMatch(/^attachment;/);
      expect(response.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    });

    it('answers a Range with 206, an unsatisfiable one with 416', async () => {
      const bytes = Buffer.from('0123456789abcdefghij');
      const { body } = await upload(bytes);
      const ranged = (range: string) =>
        request(t.http)
          .get(`/storage?id=${body.id}`)
          .set('X-API-Key', key)
          .set('Range', range)
          .buffer(true)
          .parse(binaryBody);
      const first = await ranged('bytes=0-9').expect(206);
      expect(first.body.toString()).toBe('0123456789');
      expect(first.headers).toMatchObject({
        'content-range': 'bytes 0-9/20',
        'content-length': '10',
      });
      expect((await ranged('bytes=15-').expect(206)).body.toString()).toBe('fghij');
      expect((await ranged('bytes=-3').expect(206)).body.toString()).toBe('hij');
      // RFC 9110 §14.1.3: a suffix longer than the file is the whole file.
      const suffix = await ranged('bytes=-500').expect(206);
      expect(suffix.body.toString()).toBe(bytes.toString());
      expect(suffix.headers['content-range']).toBe('bytes 0-19/20');
      const refused = await ranged('bytes=40-50').expect(416);
      expect(refused.headers['content-range']).toBe('bytes */20');
      expect((await ranged('bytes=0-1,5-6').expect(200)).body.toString()).toBe(bytes.toString());
    });

    it('answers 304 to If-None-Match with the current ETag', async () => {
      const { body } = await upload(Buffer.from(`etag ${randomUUID()}`));
      const { headers } = await download(`id=${body.id}`).expect(200);
      const cached = await request(t.http)
        .get(`/storage?id=${body.id}`)
        .set('X-API-Key', key)
        .set('If-None-Match', headers.etag)
        .expect(304);
      expect(cached.headers.etag).toBe(headers.etag);
      await request(t.http)
        .get(`/storage?id=${body.id}`)
        .set('X-API-Key', key)
        .set('If-None-Match', '"another"')
        .expect(200);
    });

    it('answers 400 for a missing or malformed id, version or action; 404 for unknown ones', async () => {
      const { body } = await upload(Buffer.from('present'));
      for (const [query, detail] of [
        ['', /id is required/],
        ['id=abc', /id must be a non-negative integer/],
        [`id=0${body.id}`, /id must be a non-negative integer without leading zeros/],
        [`id=${body.id}&version=latest`, /version must be a non-negative integer/],
        [`id=${body.id}&version=01`, /version must be a non-negative integer/],
        [`id=${body.id}&action=print`, /action is "download" or "view"/],
      ] as const) {
        const refused = await download(query).expect(400);
        expect(JSON.parse(refused.body.toString()).detail).toMatch(detail);
      }
      await download('id=999999999').expect(404);
      await request(t.http).get('/storage/999999999/versions').set('X-API-Key', key).expect(404);
      await upload(Buffer.from('x'), { id: 999999999 }).expect(404);
    });

    it('refuses uploads that are not a form with one file (400, 415)', async () => {
      await request(t.http)
        .post('/storage')
        .set('X-API-Key', key)
        .set('Content-Type', 'application/octet-stream')
        .send(Buffer.from('raw'))
        .expect(415);
      const noFile = await request(t.http)
        .post('/storage')
        .set('X-API-Key', key)
        .field('name', 'nothing')
        .expect(400);
      expect(noFile.body.detail).toMatch(/no field "file"/);
      const wrongField = await request(t.http)
        .post('/storage')
        .set('X-API-Key', key)
        .attach('upload', Buffer.from('x'), 'x.bin')
        .expect(400);
      expect(wrongField.body.detail).toMatch(/form field "file"/);
    });

    it('answers 400 to a form it cannot read, and stores nothing', async () => {
      const name = `malformed-${randomUUID()}`;
      const part = (boundary: string) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${name}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="m.bin"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\nsome bytes of the file`;
      const filesBefore = driver === 'fs' ? await storedFiles(dataDir) : [];
      for (const [contentType, body] of [
        ['multipart/form-data; boundary=XX', part('XX')], // cut short
        ['multipart/form-data; boundary=XX', `${part('XX')}\r\n--YY--\r\n`], // wrong end
        ['multipart/form-data', `${part('XX')}\r\n--XX--\r\n`], // no boundary
      ]) {
        const response = await request(t.http)
          .post('/storage')
          .set('X-API-Key', key)
          .set('Content-Type', contentType)
          .send(Buffer.from(body))
          .expect(400);
        expect(response.body).toEqual({ detail: expect.stringMatching(/multipart\/form-data/) });
      }
      expect(await versionRows(name)).toHaveLength(0);
      if (driver === 'fs') expect(await storedFiles(dataDir)).toEqual(filesBefore);
    });

    it('answers 400 naming the field to a NUL character in a name, and stores nothing', async () => {
      const filesBefore = driver === 'fs' ? await storedFiles(dataDir) : [];
      const bytes = randomBytes(64);
      const byName = await upload(bytes, { name: 'a\u0000b' }).expect(400);
      expect(byName.body.detail).toMatch(/^name contains a NUL character/);
      const byFileName = await upload(bytes, { filename: 'a\u0000b.txt' }).expect(400);
      expect(byFileName.body.detail).toMatch(/^The file name contains a NUL character/);
      expect(
        await t.dataSource.query(`SELECT 1 FROM file_version WHERE sha256 = $1`, [sha256(bytes)]),
      ).toHaveLength(0);
      if (driver === 'fs') expect(await storedFiles(dataDir)).toEqual(filesBefore);
    });

    it('answers 413 above MAX_UPLOAD_BYTES and stores nothing', async () => {
      const name = `too-big-${randomUUID()}`;
      const response = await upload(Buffer.alloc(MAX_UPLOAD_BYTES + 1), { name });
      expect(response.status).toBe(413);
      expect(response.body).toEqual({ detail: expect.any(String) });
      expect(await versionRows(name)).toHaveLength(0);
      if (driver === 'fs') expect(await readdir(join(dataDir, 'files', 'tmp'))).toEqual([]);
    });

    it('stores identical content once', async () => {
      const bytes = randomBytes(100_000);
      const a = await upload(bytes, { filename: 'a.bin' }).expect(201);
      const b = await upload(bytes, { filename: 'b.bin' }).expect(201);
      expect(a.body.id).not.toBe(b.body.id);
      const copies =
        driver === 'fs'
          ? (await readdir(join(dataDir, 'files', sha256(bytes).slice(0, 2)))).filter(
              (f) => f === sha256(bytes),
            ).length
          : (
              await t.dataSource.query(
                `SELECT count(*)::int AS n FROM file_chunk WHERE blob_key = $1`,
                [sha256(bytes)],
              )
            )[0].n;
      expect(copies).toBe(1);
      expect(Buffer.compare((await download(`id=${b.body.id}`)).body, bytes)).toBe(0);
    });

    it('leaves no record and no partial file when the connection is cut mid-upload', async () => {
      const name = `cut-${randomUUID()}`;
      const ended = await cutUploadMidFile(t, driver, dataDir, key, name);
      // The server's upload has ended, its bytes let go and its transaction over: what it
      // leaves now is what stays.
      expect(ended.status).toBe('rejected');
      expect(await versionRows(name)).toHaveLength(0);
      if (driver === 'fs') expect(await readdir(join(dataDir, 'files', 'tmp'))).toEqual([]);
      if (driver === 'db') {
        const [{ n }] = await t.dataSource.query(
          `SELECT count(*)::int AS n FROM file_chunk WHERE blob_key LIKE 'upload:%'`,
        );
        expect(n).toBe(0);
      }
    });

    it('answers 401 without credentials, 403 to a cookie session without CSRF header', async () => {
      await request(t.http).get('/storage?id=1').expect(401);
      await request(t.http).post('/storage').attach('file', Buffer.from('x'), 'x.bin').expect(401);
      const session = await sessionOfNewUser(t);
      await request(t.http)
        .post('/storage')
        .set('Cookie', session.cookie)
        .attach('file', Buffer.from('x'), 'x.bin')
        .expect(403);
      await request(t.http)
        .post('/storage')
        .set('Cookie', session.cookie)
        .set('X-CSRF-Token', session.csrfToken)
        .attach('file', Buffer.from('x'), 'x.bin')
        .expect(201);
    });

    it('takes the API key by header or query, and keeps files to their organization', async () => {
      const { body } = await upload(Buffer.from('ours'));
      const byQuery = await request(t.http)
        .get(`/storage?id=${body.id}&apiKey=${key}`)
        .buffer(true)
        .parse(binaryBody)
        .expect(200);
      expect(byQuery.body.toString()).toBe('ours');
      const other = await createOrganization(t);
      const otherKey = await apiKeyFor(t, other.admin.key);
      await download(`id=${body.id}`, otherKey).expect(404);
      await request(t.http)
        .get(`/storage/${body.id}/versions`)
        .set('X-API-Key', otherKey)
        .expect(404);
      await upload(Buffer.from('theirs'), { id: body.id }, otherKey).expect(404);
    });

    if (driver === 'fs') {
      it('removes bytes no version names once they are older than the grace, when it starts', async () => {
        const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
        const orphan = async (bytes: Buffer, at?: Date) => {
          const path = join(dataDir, 'files', sha256(bytes).slice(0, 2), sha256(bytes));
          await mkdir(dirname(path), { recursive: true });
          await writeFile(path, bytes);
          if (at) await utimes(path, at, at);
          return path;
        };
        // What a crash between the rename and the record leaves, an hour ago and just now.
        const stale = await orphan(randomBytes(1000), hourAgo);
        const fresh = await orphan(randomBytes(1000));
        // Recorded bytes, however old, and stale bytes a new upload finds and uses.
        const kept = randomBytes(1000);
        const { body: keptFile } = await upload(kept).expect(201);
        await utimes(
          join(dataDir, 'files', sha256(kept).slice(0, 2), sha256(kept)),
          hourAgo,
          hourAgo,
        );
        const reused = randomBytes(1000);
        const reusedPath = await orphan(reused, hourAgo);
        const { body: reusedFile } = await upload(reused).expect(201);

        const restarted = await createSecondTestApp({ STORAGE_DRIVER: 'fs', DATA_DIR: dataDir });
        try {
          const deadline = Date.now() + 5000;
          while (existsSync(stale) && Date.now() < deadline) await sleep(50);
          expect(existsSync(stale)).toBe(false);
          expect(existsSync(fresh)).toBe(true);
          expect(existsSync(reusedPath)).toBe(true);
          for (const [file, bytes] of [
            [keptFile, kept],
            [reusedFile, reused],
          ] as const) {
            const { body } = await download(`id=${file.id}`).expect(200);
            expect(Buffer.compare(body, bytes)).toBe(0);
          }
        } finally {
          await restarted.close();
        }
      });

      it('removes stale temporary files a crash left when it starts, not uploads in flight', async () => {
        const temporary = join(dataDir, 'files', 'tmp');
        const leftover = join(temporary, randomUUID());
        await writeFile(leftover, 'half an upload');
        const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
        await utimes(leftover, hourAgo, hourAgo);
        // Another instance on the same directory, uploading now.
        const inFlight = randomUUID();
        await writeFile(join(temporary, inFlight), 'an upload going on');
        const restarted = await createSecondTestApp({ STORAGE_DRIVER: 'fs', DATA_DIR: dataDir });
        await restarted.close();
        expect(await readdir(temporary)).toEqual([inFlight]);
        await rm(join(temporary, inFlight));
      });
    }
  });
}

/** The files under DATA_DIR/files, temporary ones included. */
async function storedFiles(dataDir: string): Promise<string[]> {
  const entries = await readdir(join(dataDir, 'files'), { recursive: true });
  return entries.map(String).sort();
}

/**
 * Sends the start of a multipart upload, more than a database chunk of its file, and cuts
 * the connection once the backend holds part of the bytes (a temporary file with bytes
 * in it; a chunk written in the upload's transaction). Resolves with how the server's
 * upload ended: its promise settles once the backend has let the bytes go and the
 * transaction is over.
 */
async function cutUploadMidFile(
  t: TestApp,
  driver: 'fs' | 'db',
  dataDir: string,
  key: string,
  name: string,
): Promise<PromiseSettledResult<unknown>> {
  const uploads = jest.spyOn(t.app.get(StorageService), 'upload');
  const chunks = jest.spyOn(t.app.get(FileChunkRepository), 'insert');
  const temporary = join(dataDir, 'files', 'tmp');
  const earlier = new Set(driver === 'fs' ? await readdir(temporary) : []);
  const holdsBytes = async () => {
    if (driver === 'db') {
      if (chunks.mock.results.length === 0) return false;
      await chunks.mock.results[0].value; // the chunk is in the transaction
      return true;
    }
    for (const file of await readdir(temporary)) {
      if (earlier.has(file)) continue;
      if (((await stat(join(temporary, file)).catch(() => undefined))?.size ?? 0) > 0) return true;
    }
    return false;
  };
  try {
    const { port } = (t.http.listening ? t.http : t.http.listen(0)).address() as AddressInfo;
    const boundary = `----cut${randomUUID()}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${name}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n`,
    );
    const req = httpRequest({
      port,
      method: 'POST',
      path: '/storage',
      headers: {
        'X-API-Key': key,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': head.length + 2_000_000,
      },
    });
    const closed = new Promise<void>((done) => {
      req.on('error', () => done());
      req.on('close', () => done());
    });
    req.write(head);
    req.write(randomBytes(1_500_000));
    await waitFor(holdsBytes, 30_000);
    req.destroy();
    await closed;
    const [ended] = await Promise.allSettled([uploads.mock.results[0].value]);
    return ended;
  } finally {
    uploads.mockRestore();
    chunks.mockRestore();
  }
}

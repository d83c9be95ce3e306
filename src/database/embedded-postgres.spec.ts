import { existsSync } from 'node:fs';
import { EmbeddedPostgres } from './embedded-postgres';

describe('EmbeddedPostgres.start', () => {
  const options = { maxConnections: 5 };

  it('refuses a DATA_DIR that pg_ctl would hand a shell unquoted, before touching it', async () => {
    for (const dataDir of ['/tmp/atrium-$HOME', '/tmp/atrium-`id`', '/tmp/atrium-"x"']) {
      await expect(EmbeddedPostgres.start(dataDir, options)).rejects.toThrow(
        `DATA_DIR ${dataDir} must not contain " $ \` or \\`,
      );
      expect(existsSync(dataDir)).toBe(false);
    }
  });

  it('refuses a DATA_DIR too long for the socket path, before touching it', async () => {
    const dataDir = `/tmp/${'d'.repeat(90)}`;
    await expect(EmbeddedPostgres.start(dataDir, options)).rejects.toThrow(
      `DATA_DIR ${dataDir} is too long for a unix socket; use a shorter path`,
    );
    expect(existsSync(dataDir)).toBe(false);
  });
});

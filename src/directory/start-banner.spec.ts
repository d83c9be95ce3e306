import { join } from 'node:path';
import { PROJECT_ROOT } from '../common/project-root';
import { startBanner } from './start-banner';

describe('startBanner', () => {
  it('says where the server, the console, the docs and the password file are', () => {
    expect(
      startBanner({
        url: 'http://127.0.0.1:3000',
        cwd: PROJECT_ROOT,
        adminPasswordFile: join(PROJECT_ROOT, 'data/admin-password'),
      }),
    ).toEqual([
      'Atrium is ready',
      '  Server          http://127.0.0.1:3000',
      '  Console         http://127.0.0.1:3000/console/ (user "admin")',
      '  API reference   http://127.0.0.1:3000/docs',
      '  Documentation   docs/README.md',
      '  Admin password  data/admin-password (sign in, change it, delete the file)',
    ]);
  });

  it('gives paths outside the working directory in full, and PUBLIC_URL as it is', () => {
    const banner = startBanner({
      url: 'https://atrium.example.com/',
      cwd: '/srv/elsewhere',
      adminPasswordFile: '/var/lib/atrium/admin-password',
    });
    expect(banner).toContain(
      '  Console         https://atrium.example.com/console/ (user "admin")',
    );
    expect(banner).toContain(`  Documentation   ${join(PROJECT_ROOT, 'docs/README.md')}`);
    expect(banner.at(-1)).toMatch(
      /^ {2}Admin password {2}\/var\/lib\/atrium\/admin-password \(sign in/,
    );
  });

  it('names ADMIN_PASSWORD on the start it gave the password: there is no file', () => {
    const banner = startBanner({
      url: 'http://localhost:3000',
      cwd: PROJECT_ROOT,
      adminPasswordSet: true,
    });
    expect(banner.at(-1)).toBe('  Admin password  the ADMIN_PASSWORD you set');
  });

  it('has no password line once the file is gone', () => {
    const banner = startBanner({ url: 'http://localhost:3000', cwd: PROJECT_ROOT });
    expect(banner.at(-1)).toBe('  Documentation   docs/README.md');
  });
});

import { join } from 'node:path';
import { PROJECT_ROOT } from '../common/project-root';
import { firstStartSummary } from './first-start-summary';

describe('firstStartSummary', () => {
  it('says where the server, the console, the docs and the password file are', () => {
    expect(
      firstStartSummary({
        url: 'http://127.0.0.1:3000',
        cwd: PROJECT_ROOT,
        adminPasswordFile: join(PROJECT_ROOT, 'data/admin-password'),
      }),
    ).toBe(
      [
        'Atrium is ready',
        '  Server          http://127.0.0.1:3000',
        '  Console         http://127.0.0.1:3000/console/ (user "admin")',
        '  API reference   http://127.0.0.1:3000/docs',
        '  Documentation   docs/README.md',
        '  Admin password  data/admin-password (sign in, change it, delete the file)',
      ].join('\n'),
    );
  });

  it('gives paths outside the working directory in full, and PUBLIC_URL as it is', () => {
    const summary = firstStartSummary({
      url: 'https://atrium.example.com/',
      cwd: '/srv/elsewhere',
      adminPasswordFile: '/var/lib/atrium/admin-password',
    });
    expect(summary).toContain('Console         https://atrium.example.com/console/ ');
    expect(summary).toContain(`Documentation   ${join(PROJECT_ROOT, 'docs/README.md')}\n`);
    expect(summary).toContain('Admin password  /var/lib/atrium/admin-password (sign in');
  });

  it('names ADMIN_PASSWORD when it gave the password: there is no file', () => {
    const summary = firstStartSummary({ url: 'http://localhost:3000', cwd: PROJECT_ROOT });
    expect(summary.split('\n').at(-1)).toBe('  Admin password  the ADMIN_PASSWORD you set');
  });
});

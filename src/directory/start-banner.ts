import { isAbsolute, join, relative } from 'node:path';
import { PROJECT_ROOT } from '../common/project-root';
import { CONSOLE_PATH } from '../http/console-files';
import { DEMO_ADMIN } from './first-boot.service';

/** The documentation's table of contents, in the project. */
export const DOCS_INDEX = join(PROJECT_ROOT, 'docs/README.md');

export interface StartPlaces {
  /** Where a browser reaches the server: PUBLIC_URL, or the address it listens on. */
  url: string;
  /** Where the server runs: a path inside it is shown relative to it. */
  cwd: string;
  /** The admin's generated password, while its file is there. */
  adminPasswordFile?: string;
  /** This start made the admin with the password ADMIN_PASSWORD gave. */
  adminPasswordSet?: boolean;
}

/**
 * The last lines of every start, so that the terminal ends with them: where the server,
 * the console, the documentation and (until the file is deleted) the admin's password are.
 */
export function startBanner({
  url,
  cwd,
  adminPasswordFile,
  adminPasswordSet,
}: StartPlaces): string[] {
  const base = url.replace(/\/+$/, '');
  const shown = (path: string) => {
    const inside = relative(cwd, path);
    return inside.startsWith('..') || isAbsolute(inside) ? path : inside;
  };
  const password = adminPasswordFile
    ? `${shown(adminPasswordFile)} (sign in, change it, delete the file)`
    : adminPasswordSet
      ? 'the ADMIN_PASSWORD you set'
      : undefined;
  return [
    'Atrium is ready',
    `  Server          ${base}`,
    `  Console         ${base}${CONSOLE_PATH} (user "${DEMO_ADMIN}")`,
    `  API reference   ${base}/docs`,
    `  Documentation   ${shown(DOCS_INDEX)}`,
    ...(password ? [`  Admin password  ${password}`] : []),
  ];
}

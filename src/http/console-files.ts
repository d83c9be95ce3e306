import { resolve } from 'node:path';

/** Where the console is served from (the platforms serve its files; ConsoleController redirects / to it). */
export const CONSOLE_PATH = '/console/';
/**
 * Its build, console/dist in the project. This file runs compiled from dist/src/http/
 * (npm start) or from source in src/http/ (the tests): the project is one level further
 * up when compiled.
 */
export const CONSOLE_DIST = resolve(
  __dirname,
  __filename.endsWith('.js') ? '../../..' : '../..',
  'console/dist',
);

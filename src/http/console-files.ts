import { join } from 'node:path';
import { PROJECT_ROOT } from '../common/project-root';

/** Where the console is served from (the platforms serve its files; ConsoleController redirects / to it). */
export const CONSOLE_PATH = '/console/';
/** Its build, console/dist in the project. */
export const CONSOLE_DIST = join(PROJECT_ROOT, 'console/dist');

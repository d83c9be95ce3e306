import { resolve } from 'node:path';

/**
 * The project's directory, whatever directory the server runs in. This file runs compiled
 * from dist/src/common/ (npm start) or from source in src/common/ (the tests): the project
 * is one level further up when compiled.
 */
export const PROJECT_ROOT = resolve(__dirname, __filename.endsWith('.js') ? '../../..' : '../..');

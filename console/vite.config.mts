import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { defineConfig, Plugin } from 'vite';

const OUT_DIR = 'dist';
/** What is worth compressing: text. Fonts and images are compressed already. */
const TEXT = /\.(js|css|html|svg|json|txt|map)$/;

/**
 * Writes `<file>.br` and `<file>.gz` beside each text file of the build, at the highest
 * levels (once, at build time): the server sends the one the browser accepts, with
 * Content-Encoding and Vary (src/http/*.platform.ts), and never compresses per request.
 */
function precompress(): Plugin {
  let root = '';
  return {
    name: 'atrium-precompress',
    apply: 'build',
    configResolved(config) {
      root = join(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await readdir(root, { recursive: true })).filter((name) => TEXT.test(name));
      await Promise.all(
        files.map(async (name) => {
          const path = join(root, name);
          const bytes = await readFile(path);
          await writeFile(
            `${path}.br`,
            await promisify(brotliCompress)(bytes, {
              params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
            }),
          );
          await writeFile(`${path}.gz`, await promisify(gzip)(bytes, { level: 9 }));
        }),
      );
    },
  };
}

// Served by the server at /console/ (src/http/*.platform.ts), from console/dist.
export default defineConfig({
  base: '/console/',
  plugins: [precompress()],
  // The budget is 400 KB gzip in all (test/console.e2e-spec.ts), not Vite's 500 KB raw.
  build: { outDir: OUT_DIR, emptyOutDir: true, chunkSizeWarningLimit: 1500 },
});

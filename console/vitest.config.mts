import { defineConfig } from 'vitest/config';

// The console's own logic (console/src/*.test.ts), in Node: no DOM needed.
export default defineConfig({
  root: import.meta.dirname,
  test: { include: ['src/**/*.test.ts'] },
});

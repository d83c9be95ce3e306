import { defineConfig } from 'vite';

// Served by the server at /console/ (src/http/*.platform.ts), from console/dist.
export default defineConfig({
  base: '/console/',
  // The budget is 400 KB gzip in all (test/console.e2e-spec.ts), not Vite's 500 KB raw.
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
});

import { defineConfig } from 'vite';

// Served by the server at /console/ (src/http/*.platform.ts), from console/dist.
export default defineConfig({
  base: '/console/',
  build: { outDir: 'dist', emptyOutDir: true },
});

/// <reference types="vitest/config" />
// Build and dev-server config for the dashboard (web/), plus the vitest settings for tests/.
// The dashboard is served offline on the greenhouse LAN: no CDN fonts or remote assets anywhere.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const repoRoot = fileURLToPath(new URL('.', import.meta.url));
const gateway = 'http://localhost:8080';

export default defineConfig({
  root: 'web',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Phones on the LAN: keep the bundle small and modern.
    target: 'es2022',
  },
  server: {
    proxy: {
      '/api': { target: gateway, changeOrigin: true },
      '/ws': { target: gateway, ws: true },
    },
  },
  // Vitest reads this file when no vitest.config.ts exists; tests live under tests/, not web/.
  test: {
    root: repoRoot,
    include: ['tests/**/*.test.ts'],
    environment: 'node',
  },
});

// Build and dev-server config for the dashboard (web/), (tests use vitest.config.ts).
// The dashboard is served offline on the greenhouse LAN: no CDN fonts or remote assets anywhere.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

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
});

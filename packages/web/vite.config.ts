import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiServer = process.env.LINKAUDIT_API ?? 'http://localhost:3000';
const serverPaths = ['/api', '/token', '/reports', '/healthcheck', '/hubs', '/PowerBi'];

// The web app reads @linkaudit/core from its TypeScript sources ("source" export condition).
export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ['source', 'module', 'browser', 'development|production'] },
  server: {
    port: 5173,
    proxy: Object.fromEntries(
      serverPaths.map((prefix) => [prefix, { target: apiServer, ws: true }]),
    ),
  },
  // The manifest lets bench/first-load.mjs measure what each route loads (docs/benchmarks.md).
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1500,
    manifest: true,
  },
});

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The gRPC-Web paths the console calls; in dev they go to the local server (npm start).
const backend = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The server's CSP (script-src 'self') forbids inline scripts; keep every module external.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Libraries change less often than the console: separate chunks stay cached across
        // releases, and no single file crosses Vite's 500 kB warning.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'router', test: /node_modules[\\/]react-router[\\/]/ },
            { name: 'rpc', test: /node_modules[\\/](@bufbuild|@connectrpc)[\\/]/ },
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '^/store\\..*': { target: backend },
      '^/grpc\\..*': { target: backend },
    },
  },
});

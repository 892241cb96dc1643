// Bundles the server into server/dist/main.js. The workspace contract package (TypeScript source)
// is bundled in; every npm dependency stays external and is loaded from node_modules.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@store/'));

await build({
  entryPoints: {
    main: new URL('../src/main.ts', import.meta.url).pathname,
    'token-cli': new URL('../src/cli/token-cli.ts', import.meta.url).pathname,
    // The validation pool's worker threads load it from beside main.js (validation-pool.ts).
    'validation-worker': new URL(
      '../src/engines/schema/validation/validation-worker.ts',
      import.meta.url,
    ).pathname,
  },
  outdir: new URL('../dist', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: [...external, '@bufbuild/protobuf/*', '@connectrpc/*'],
  logLevel: 'warning',
});
console.log('built server/dist/main.js, token-cli.js and validation-worker.js');

// The server child as deployed: bundled by esbuild like server/scripts/build.mjs (npm
// dependencies external, loaded from node_modules) and run by plain node, not through tsx, whose
// loader and compiled sources would count in the server's resident set.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const serverDir = new URL('../../server/', import.meta.url);
// Under server/dist (ignored by git), so the externals resolve from server/node_modules as the
// deployed bundle's do; the validation pool finds validation-worker.js beside the entry.
const outdir = new URL('dist/bench/', serverDir).pathname;

let built: Promise<string> | undefined;

/** Bundles bench/lib/server-child.ts once per process; returns the bundle's path. */
export function bundleServerChild(): Promise<string> {
  built ??= (async () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', serverDir), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@store/'));
    await build({
      entryPoints: {
        'server-child': new URL('./server-child.ts', import.meta.url).pathname,
        'validation-worker': new URL(
          'src/engines/schema/validation/validation-worker.ts',
          serverDir,
        ).pathname,
      },
      outdir,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      sourcemap: true,
      external: [...external, '@bufbuild/protobuf/*', '@connectrpc/*'],
      logLevel: 'warning',
    });
    return `${outdir}server-child.js`;
  })();
  return built;
}

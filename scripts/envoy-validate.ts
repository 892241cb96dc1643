// `npm test` step: the real Envoy's verdict on proxy/envoy.yaml (`envoy --mode validate`), on the
// shipped file as it is and with the addresses `npm run edge` substitutes.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureEnvoy } from './edge/envoy-binary.js';
import { ENVOY_YAML, writeEdgeEnvoyConfig } from './edge/envoy-config.js';

let envoy: string;
try {
  envoy = ensureEnvoy();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
const dir = mkdtempSync(join(tmpdir(), 'store-envoy-validate-'));
try {
  const addresses = {
    listenPort: 18080,
    adminPort: 19901,
    replicas: [
      { grpcPort: 50051, httpPort: 8080 },
      { grpcPort: 50052, httpPort: 8081 },
    ],
  };
  const edge = writeEdgeEnvoyConfig(dir, addresses);
  mkdirSync(join(dir, 'reflection'));
  const withReflection = writeEdgeEnvoyConfig(join(dir, 'reflection'), {
    ...addresses,
    reflection: true,
  });
  for (const [what, file] of [
    ['proxy/envoy.yaml', ENVOY_YAML],
    ['proxy/envoy.yaml with npm run edge addresses', edge],
    ['the same with STORE_EDGE_REFLECTION=on', withReflection],
  ] as const) {
    const result = spawnSync(envoy, ['--mode', 'validate', '-c', file, '--log-level', 'warn'], {
      encoding: 'utf8',
    });
    const said = `${result.stdout}${result.stderr}`.trim();
    if (result.status !== 0 || /\]\[(warning|error|critical)\]/.test(said)) {
      console.error(`✗ envoy --mode validate: ${what}\n${said}`);
      process.exit(1);
    }
    console.log(`envoy --mode validate: ${what}: ${said.split('\n').at(-1)}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

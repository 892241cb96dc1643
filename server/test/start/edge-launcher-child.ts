// A launcher of the edge topology for edge-launcher-exit.test.ts: starts it as `npm run edge`
// does (the replicas from source through tsx), prints its process groups, and waits to be killed.
import { fileURLToPath } from 'node:url';
import { startEdge } from '../../../scripts/edge/topology.js';

const main = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const options = JSON.parse(process.env.EDGE_TEST_OPTIONS ?? '{}') as {
  workDir: string;
  databaseUrl: string;
  pgSchema: string;
};
const edge = await startEdge({
  ...options,
  serverCommand: [process.execPath, '--import', 'tsx', main],
  bootstrapToken: 'edge-launcher-test-token-0123456789',
  replicas: 2,
  env: { STORE_SHUTDOWN_GRACE_MS: '1000', STORE_LOG_LEVEL: 'warn' },
});
const groups = [edge.envoy, edge.objectStorage.process, ...edge.replicas.map((r) => r.process)].map(
  (managed) => ({ name: managed.name, pgid: managed.child.pid }),
);
console.log(`EDGE ${JSON.stringify({ url: edge.url, groups })}`);
setInterval(() => undefined, 60_000);

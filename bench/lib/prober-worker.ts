// The prober's own thread (issue 37 bullet 7): every `intervalMs` it calls Health.Check and
// ListEntries (a page of 10) on the server, whatever the server is doing, and keeps how long each
// answer took. Its own event loop is idle, so a slow answer is the server's, not the prober's.
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { TreeDataService } from '@store/contract';
import { Health } from '@store/contract/gen/grpc/health/v1/health_pb.js';
import { parentPort } from 'node:worker_threads';
import { withToken } from './bench-server.js';
import type { ProbeCommand, ProbeResult } from './prober.js';

const port = parentPort;
if (!port) throw new Error('the prober runs in a worker thread only');

let running: { stop: () => Promise<ProbeResult> } | undefined;

function start(command: Extract<ProbeCommand, { type: 'start' }>) {
  const transport = createGrpcTransport({
    baseUrl: command.grpcUrl,
    interceptors: [withToken(command.token)],
  });
  const health = createClient(Health, transport);
  const data = createClient(TreeDataService, transport);
  const result: ProbeResult = { healthMs: [], listMs: [], errors: 0, firstError: undefined };
  const inFlight = new Set<Promise<void>>();
  const probe = (call: () => Promise<unknown>, into: number[]) => {
    const t0 = performance.now();
    const done = call().then(
      () => {
        into.push(performance.now() - t0);
      },
      (error: unknown) => {
        // A probe that failed waited too: its time counts, and so does the failure.
        into.push(performance.now() - t0);
        result.errors += 1;
        result.firstError ??= error instanceof Error ? error.message : String(error);
      },
    );
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  };
  const tick = () => {
    probe(() => health.check({}), result.healthMs);
    probe(() => data.listEntries({ treeId: command.treeId, pageSize: 10 }), result.listMs);
  };
  const timer = setInterval(tick, command.intervalMs);
  tick();
  return {
    async stop() {
      clearInterval(timer);
      // Probes still waiting are waited for: their time is the longest of all.
      await Promise.all([...inFlight]);
      return result;
    },
  };
}

port.on('message', (command: ProbeCommand) => {
  if (command.type === 'start') {
    running = start(command);
    port.postMessage({ type: 'started' });
    return;
  }
  const current = running;
  running = undefined;
  if (!current) {
    port.postMessage({ type: 'error', error: 'stop without start' });
    return;
  }
  current.stop().then(
    (result) => port.postMessage({ type: 'result', result }),
    (error: unknown) => port.postMessage({ type: 'error', error: String(error) }),
  );
});

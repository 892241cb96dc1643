// Row 24's callers in a worker thread, so the event loop measured in the main thread is the
// server's alone: tenant a's writers and pollers, and (in a flood round) tenant b's viewers
// starting previews and dry-runs at their caps. Started by runFloodRound (flood-round.ts), reused.
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { BackupControlService, BackupInsightService, TreeDataService } from '@store/contract';
import { SchemaInsightService } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { withToken } from './bench-server.js';
import type { FloodRoundJob, FloodRoundResult } from './flood-round.js';
import { serveJobs } from './worker-pool.js';

async function run(job: FloodRoundJob): Promise<FloodRoundResult> {
  const transportOf = (token: string) =>
    createGrpcTransport({ baseUrl: job.grpcUrl, interceptors: [withToken(token)] });
  const a = transportOf(job.aToken);
  const data = createClient(TreeDataService, a);
  const backup = createClient(BackupControlService, a);
  const result: FloodRoundResult = { puts: 0, polls: 0, started: 0, refused: 0 };
  const until = performance.now() + job.seconds * 1000;
  const writer = async (w: number) => {
    for (let i = 0; performance.now() < until; i++) {
      await data.putEntry({ treeId: job.aTree, key: `r${job.round}-w${w}-${i}`, valueJson: '{}' });
      result.puts += 1;
    }
  };
  const poller = async () => {
    while (performance.now() < until) {
      await backup.getBackupOperationStatus({ operationId: job.pollOperationId });
      result.polls += 1;
    }
  };
  const flooder = async (token: string) => {
    const transport = transportOf(token);
    const insight = createClient(BackupInsightService, transport);
    const schema = createClient(SchemaInsightService, transport);
    for (let i = 0; performance.now() < until; i++) {
      try {
        if (i % 2 === 0) await insight.startRestorePreview({ backupId: job.bBackupId });
        else await schema.startPolicyDryRun({ treeId: job.bTree, jsonSchema: '{"type":"object"}' });
        result.started += 1;
      } catch (error) {
        if (ConnectError.from(error).code !== Code.ResourceExhausted) throw error;
        result.refused += 1;
        await new Promise((r) => setTimeout(r, job.refusedPauseMs));
      }
    }
  };
  await Promise.all([
    ...Array.from({ length: job.writers }, (_, w) => writer(w)),
    ...Array.from({ length: job.pollers }, poller),
    ...job.bTokens.map(flooder),
  ]);
  return {
    ...result,
    puts: result.puts / job.seconds,
    polls: result.polls / job.seconds,
  };
}

serveJobs(run);

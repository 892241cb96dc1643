// Tenant b's viewer in its own process, as an attacker is: STORE_FLOOD (JSON: grpcUrl, token,
// backupId, starters, ms) names the flood. Prints "started" when its clients are ready, then one
// JSON line: starts accepted, refusals by kind with one message and retry-after of each, and any
// other outcome (which the test treats as a failure).
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { BackupInsightService } from '@store/contract';

export interface FloodPlan {
  grpcUrl: string;
  token: string;
  backupId: string;
  starters: number;
  ms: number;
}

export interface FloodOutcome {
  accepted: number;
  refused: Record<'cap' | 'rate', { count: number; message: string; retryAfter: string }>;
  other: string[];
}

const plan = JSON.parse(process.env.STORE_FLOOD ?? '{}') as FloodPlan;
const transport = createGrpcTransport({
  baseUrl: plan.grpcUrl,
  interceptors: [
    (next) => (req) => {
      req.header.set('authorization', `Bearer ${plan.token}`);
      return next(req);
    },
  ],
});
const insight = createClient(BackupInsightService, transport);
const outcome: FloodOutcome = {
  accepted: 0,
  refused: {
    cap: { count: 0, message: '', retryAfter: '' },
    rate: { count: 0, message: '', retryAfter: '' },
  },
  other: [],
};
console.log('started');
const until = Date.now() + plan.ms;
await Promise.all(
  Array.from({ length: plan.starters }, async () => {
    while (Date.now() < until) {
      try {
        await insight.startRestorePreview({ backupId: plan.backupId });
        outcome.accepted += 1;
      } catch (error) {
        const e = ConnectError.from(error);
        if (e.code !== Code.ResourceExhausted) {
          if (outcome.other.length < 10) outcome.other.push(`${Code[e.code]}: ${e.rawMessage}`);
          continue;
        }
        const kind = /the most a tenant may have/.test(e.rawMessage) ? 'cap' : 'rate';
        const seen = outcome.refused[kind];
        seen.count += 1;
        seen.message = e.rawMessage;
        seen.retryAfter = e.metadata.get('retry-after') ?? '';
      }
    }
  }),
);
console.log(JSON.stringify(outcome));

import type { ServiceImpl } from '@connectrpc/connect';
import type { SchemaInsightService } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { describeSelection } from '../../engines/schema/insight/dead-letter-discard.js';
import type { SchemaInsight } from '../../engines/schema/insight/schema-insight.js';
import { auditFactsKey } from '../audit-interceptor.js';
import { callScopeOf } from '../call-scope.js';
import { expectedCountFromProto, selectionFromProto } from './dead-letter-discard-mapping.js';

type DiscardHandlers = Pick<
  ServiceImpl<typeof SchemaInsightService>,
  'countPendingDeadLetters' | 'discardDeadLetters'
>;

/** CountPendingDeadLetters and DiscardDeadLetters, in the caller's tenant. */
export function deadLetterDiscardHandlers(insight: SchemaInsight): DiscardHandlers {
  return {
    async countPendingDeadLetters(request, context) {
      const { tenant } = callScopeOf(context);
      const selection = selectionFromProto(request.selection, { required: false });
      const pending = await insight.countPendingDeadLetters(tenant, request.treeId, selection);
      return { count: BigInt(pending.count), fingerprint: pending.fingerprint };
    },
    async discardDeadLetters(request, context) {
      const { caller, tenant } = callScopeOf(context);
      const selection = selectionFromProto(request.selection, { required: true });
      const expectedCount = expectedCountFromProto(request.expectedCount);
      const discarded = await insight.discardDeadLetters(
        { tenant, treeName: request.treeId, discardedBy: caller.subject },
        selection,
        { expectedCount, expectedFingerprint: request.expectedFingerprint, note: request.note },
      );
      // The audit record (target: the tree) names what was taken and how many.
      const facts = context.values.get(auditFactsKey);
      if (facts) {
        const note = request.note?.trim() ? `; note: ${request.note.trim()}` : '';
        const letters = discarded === 1 ? 'dead letter' : 'dead letters';
        facts.detail = `discarded ${discarded} ${letters}: ${describeSelection(selection)}${note}`;
      }
      return { discardedCount: BigInt(discarded) };
    },
  };
}

import { SchemaInsightApiOperation as Op } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import type { Role } from '../../engines/identity/principal.js';
import type { GuardedService, MethodAccess } from '../auth/method-access.js';

const treeId = (request: unknown) => {
  const value = (request as Record<string, unknown> | undefined)?.['treeId'];
  return typeof value === 'string' ? value : null;
};
const none = (): null => null;
const onTree = (operation: Op): MethodAccess => ({ operation, targetId: treeId });
const onOperation = (operation: Op): MethodAccess => ({ operation, targetId: none });
// Starting a run, writing entries and stopping someone's run are audited (issue 18).
const changing = (access: MethodAccess): MethodAccess => ({ ...access, changesState: true });
// Dry-runs and migration previews are open to viewers: each caller's starts are rate limited.
const previewStart = (access: MethodAccess): MethodAccess => ({
  ...changing(access),
  startsPreview: true,
});

/** SchemaInsightService as the interceptor presents it: tree RPCs target the tree id as sent. */
export const SCHEMA_INSIGHT_SERVICE: GuardedService = {
  // The full service name, not the package: BackupInsightService shares store.insight.v1.
  prefix: 'store.insight.v1.SchemaInsightService',
  methods: {
    StartPolicyDryRun: previewStart(onTree(Op.START_POLICY_DRY_RUN)),
    StartMigrationPreview: previewStart(onTree(Op.START_MIGRATION_PREVIEW)),
    ValidateValue: onTree(Op.VALIDATE_VALUE),
    ListDeadLetters: onTree(Op.LIST_DEAD_LETTERS),
    ReplayDeadLetter: changing(onTree(Op.REPLAY_DEAD_LETTER)),
    StartDeadLetterReplay: changing(onTree(Op.START_DEAD_LETTER_REPLAY)),
    GetSchemaInsightOperationStatus: onOperation(Op.GET_OPERATION_STATUS),
    ListSchemaInsightOperations: onOperation(Op.LIST_OPERATIONS),
    CancelSchemaInsightOperation: changing(onOperation(Op.CANCEL_OPERATION)),
    CountPendingDeadLetters: onTree(Op.COUNT_PENDING_DEAD_LETTERS),
    DiscardDeadLetters: changing(onTree(Op.DISCARD_DEAD_LETTERS)),
  },
  unknownOperation: Op.UNSPECIFIED,
  exempt: [],
};

/**
 * Least roles (issue 16): a dry-run, a migration preview, a value check and the letters' history
 * change nothing (viewer); a replay writes entries and a cancel stops someone's run (operator).
 */
export const SCHEMA_INSIGHT_LEAST_ROLE: ReadonlyMap<number, Role> = new Map<number, Role>([
  [Op.START_POLICY_DRY_RUN, 'viewer'],
  [Op.START_MIGRATION_PREVIEW, 'viewer'],
  [Op.VALIDATE_VALUE, 'viewer'],
  [Op.LIST_DEAD_LETTERS, 'viewer'],
  [Op.GET_OPERATION_STATUS, 'viewer'],
  [Op.LIST_OPERATIONS, 'viewer'],
  [Op.REPLAY_DEAD_LETTER, 'operator'],
  [Op.START_DEAD_LETTER_REPLAY, 'operator'],
  [Op.CANCEL_OPERATION, 'operator'],
  // A count changes nothing; a discard resolves letters as a replay does, so it needs operator.
  [Op.COUNT_PENDING_DEAD_LETTERS, 'viewer'],
  [Op.DISCARD_DEAD_LETTERS, 'operator'],
]);

import { StoreOperationKind, StoreOperationState } from '@store/contract';
import { retentionApplyBrief } from '../../../components/operations/retention-apply-summary';
import { formatCount } from '../../../lib/format';
import { counted } from '../../../lib/words';
import type { ConsoleOperation } from '../../../lib/operations/schema-insight-operations';
import { humanizeProgressMessage } from '../../../lib/progress/estimate';

const COMPARISONS = new Set([
  StoreOperationKind.RESTORE_PREVIEW,
  StoreOperationKind.BACKUP_DIFF,
  StoreOperationKind.REVERT_PREVIEW,
]);

/**
 * A succeeded operation's result in one line, for the operations list: what a capture made, a
 * restore applied, a check found, a preview or dry-run would do. Null when there is nothing to
 * say beyond its last progress message.
 */
export function resultBrief(op: ConsoleOperation): string | null {
  if (op.state !== StoreOperationState.SUCCEEDED) return null;
  const result = op.result;
  switch (result.case) {
    case 'capture':
      return `Backup ${result.value.manifest?.name || result.value.backupId}, ${counted(result.value.manifest?.entryCount ?? 0n, 'entry', 'entries')}`;
    case 'setCapture':
      return `Backup set of ${counted(result.value.members.length, 'tree')}`;
    case 'restore':
      return `${counted(result.value.entriesApplied, 'entry', 'entries')} restored into ${result.value.targetTreeId}`;
    case 'healthReport':
      return `Verdict: ${result.value.issues.length === 0 ? 'no issues' : counted(result.value.issues.length, 'issue')}`;
    case 'staleHealthCheck': {
      const r = result.value;
      return `${formatCount(r.checked)} checked: ${formatCount(r.healthy)} healthy, ${formatCount(r.degraded)} degraded, ${formatCount(r.corrupt)} corrupt, ${formatCount(r.missing)} missing`;
    }
    case 'retentionApply':
      return retentionApplyBrief(result.value);
    case 'scrub':
      return `${counted(result.value.rowsChecked, 'catalog row')} checked, ${counted(result.value.findings.length, 'finding')}`;
    case 'remediationReport':
    case 'complianceReport':
      break;
    default:
      break;
  }
  const insight = op.schemaInsightResult;
  switch (insight?.case) {
    case 'dryRun':
      return `${counted(insight.value.scanned, 'entry', 'entries')} checked, ${formatCount(insight.value.failing)} would be refused`;
    case 'replay':
      return `${counted(insight.value.considered, 'letter')} replayed: ${formatCount(insight.value.written)} written, ${formatCount(insight.value.refused)} refused again`;
    case 'migrationPreview':
      return `${counted(insight.value.scanned, 'entry', 'entries')} read: ${formatCount(insight.value.wouldChange)} would change, ${formatCount(insight.value.wouldDeadLetter)} would be dead-lettered`;
    default:
      break;
  }
  // Comparisons keep their counts in their report; the last progress message says them.
  if (COMPARISONS.has(op.kind) && op.progress?.message) {
    const message = humanizeProgressMessage(op.progress.message);
    return message.charAt(0).toUpperCase() + message.slice(1);
  }
  return null;
}

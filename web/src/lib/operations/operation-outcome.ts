import { BackupHealthStatus, StoreOperationState } from '@store/contract';
import type { BadgeTone } from '../../components/ui/badge';
import { counted } from '../words/counted';
import { stateLabel } from './operation-kinds';
import type { ConsoleOperation } from './schema-insight-operations';

/** How an operation ended, as its badge, tray line and toast show it. */
export interface OperationOutcome {
  tone: BadgeTone;
  /** "Succeeded", or "Succeeded — 1 corrupt, 2 missing" when the run found problems. */
  label: string;
  /** What the run found wrong ("1 corrupt", "2 missing"); empty when nothing. */
  findings: readonly string[];
}

const TONES: Partial<Record<StoreOperationState, BadgeTone>> = {
  [StoreOperationState.QUEUED]: 'neutral',
  [StoreOperationState.RUNNING]: 'info',
  [StoreOperationState.SUCCEEDED]: 'success',
  [StoreOperationState.FAILED]: 'danger',
  // Someone decided to stop it: not a failure.
  [StoreOperationState.CANCELLED]: 'neutral',
};

const HEALTH_WORDS: Partial<Record<BackupHealthStatus, string>> = {
  [BackupHealthStatus.DEGRADED]: 'degraded',
  [BackupHealthStatus.CORRUPT]: 'corrupt',
  [BackupHealthStatus.MISSING]: 'missing',
};

/** Each non-zero count as "1 orphan", "2 corrupt", in order; a word without a plural keeps one form. */
function nonZero(counts: readonly (readonly [bigint | number, string, string?])[]): string[] {
  return counts
    .filter(([count]) => BigInt(count) > 0n)
    .map(([count, one, many]) => counted(count, one, many ?? one));
}

/**
 * The problems a run found while doing its job: a check's corrupt or missing backups, a scrub's
 * orphans, a scan's violations. An operation can succeed (the run went to its end) and still
 * find something wrong; that must never read as plain green.
 */
export function operationFindings(op: ConsoleOperation): string[] {
  if (op.state !== StoreOperationState.SUCCEEDED) return [];
  const result = op.result;
  switch (result.case) {
    case 'healthReport': {
      const words = HEALTH_WORDS[result.value.status];
      if (words) return [words];
      // A verdict of healthy with issues (or no verdict) still names its issues.
      return nonZero([[result.value.issues.length, 'issue', 'issues']]);
    }
    case 'staleHealthCheck': {
      const r = result.value;
      return nonZero([
        [r.corrupt, 'corrupt'],
        [r.missing, 'missing'],
        [r.degraded, 'degraded'],
      ]);
    }
    case 'scrub': {
      const problems = (problem: string) =>
        result.value.findings.filter((f) => f.problem === problem).length;
      const orphans = Math.max(result.value.orphansFound, problems('orphan'));
      return nonZero([
        [problems('corrupt'), 'corrupt'],
        [problems('missing'), 'missing'],
        [orphans, 'orphan', 'orphans'],
      ]);
    }
    case 'complianceReport':
      return nonZero([[result.value.nonCompliant, 'non-compliant']]);
    case 'retentionApply':
      // An automatic apply that stopped (it would have deleted the newest healthy backup, or too
      // much of the scope) did its job by deleting nothing: a warning, never plain green.
      return result.value.stoppedReason !== '' ? ['stopped, nothing deleted'] : [];
    case 'remediationReport':
      return nonZero([
        [result.value.failed, 'failed'],
        [result.value.deadLettered, 'dead-lettered'],
      ]);
    default:
      break;
  }
  const insight = op.schemaInsightResult;
  switch (insight?.case) {
    case 'dryRun':
      return nonZero([[insight.value.failing, 'would be refused']]);
    case 'replay':
      return nonZero([[insight.value.refused, 'refused again']]);
    default:
      return [];
  }
}

/** A state alone, when there is no result to read (a report that carries only its state). */
export function stateOutcome(state: StoreOperationState): OperationOutcome {
  return { tone: TONES[state] ?? 'neutral', label: stateLabel(state), findings: [] };
}

/** The state's words and tone, a warning when a succeeded run found problems. */
export function operationOutcome(op: ConsoleOperation): OperationOutcome {
  const findings = operationFindings(op);
  if (findings.length === 0) return stateOutcome(op.state);
  return { tone: 'warning', label: `${stateLabel(op.state)} — ${findings.join(', ')}`, findings };
}

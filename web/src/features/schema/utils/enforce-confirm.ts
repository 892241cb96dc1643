import { StoreSchemaMode, type StoreSchemaPolicy } from '@store/contract';
import type { PolicyDryRunReport } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { formatCount } from '../../../lib/format';
import type { CheckedPolicy } from './policy-draft';

/** The stored policy's parts the confirm compares against (null: the tree has none). */
export interface StoredPolicyShape {
  jsonSchema: string;
  enforce: boolean;
}

/** The stored policy as the confirm compares it. */
export function storedShape(
  policy: StoreSchemaPolicy | null | undefined,
): StoredPolicyShape | null {
  return policy
    ? { jsonSchema: policy.jsonSchema, enforce: policy.mode !== StoreSchemaMode.AUDIT }
    : null;
}

/**
 * Two schema texts that say the same: whitespace and indentation aside (the editor shows the
 * stored schema pretty-printed, so "the same draft" must survive that). Key order counts.
 */
export function sameSchema(a: string, b: string): boolean {
  if (a === b) return true;
  try {
    return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));
  } catch {
    return false;
  }
}

/**
 * Saving this draft changes what writes get from now on under Enforce: a new Enforce policy, an
 * Audit policy switched to Enforce, or another schema under Enforce. Those ask first; an Audit
 * policy (writes still apply) and an Enforce save of the very same schema (a new version or
 * description only) do not.
 */
export function needsEnforceConfirm(
  stored: StoredPolicyShape | null,
  draft: Pick<CheckedPolicy, 'jsonSchema' | 'mode'>,
): boolean {
  if (draft.mode !== 'ENFORCE') return false;
  if (!stored || !stored.enforce) return true;
  return !sameSchema(stored.jsonSchema, draft.jsonSchema);
}

/**
 * Which action asks: saving a policy (it applies at once) or a remediation (its target policy
 * becomes the tree's when the run succeeds; failing entries get the transform first).
 */
export type EnforceAction = 'policy' | 'remediation';

function counted(report: Pick<PolicyDryRunReport, 'failing' | 'scanned'>): string {
  const noun = report.scanned === 1n ? 'existing entry' : 'existing entries';
  return report.failing === 0n
    ? `None of the ${formatCount(report.scanned)} ${noun}`
    : `${formatCount(report.failing)} of ${formatCount(report.scanned)} ${noun}`;
}

/**
 * What the dry run said, as the confirm repeats it: "300 of 300 existing entries would fail this
 * schema; from now on a write that fails it is refused and sent to dead letters."
 */
export function enforceConsequence(
  report: Pick<PolicyDryRunReport, 'failing' | 'scanned'>,
  action: EnforceAction = 'policy',
): string {
  if (action === 'remediation') {
    return (
      `${counted(report)} fail the target schema now; each gets the transform and goes to dead ` +
      'letters if it still fails. Once the run succeeds, a write that fails the schema is refused ' +
      'and sent to dead letters.'
    );
  }
  return `${counted(report)} would fail this schema; from now on a write that fails it is refused and sent to dead letters.`;
}

/** The confirm's words when no finished dry run of this schema is on the page. */
export function enforceUnknown(action: EnforceAction, why: 'none' | 'unfinished' | 'running') {
  const subject = action === 'policy' ? 'this draft' : 'this target schema';
  const lead =
    why === 'running'
      ? `A dry run of ${subject} is still running, so how many existing entries would fail it is not known yet.`
      : why === 'unfinished'
        ? `The dry run of ${subject} did not finish, so how many existing entries would fail it is not known.`
        : `No dry run of ${subject} has been run, so how many existing entries would fail it is not known.`;
  const then =
    action === 'policy'
      ? 'From now on a write that fails it is refused and sent to dead letters.'
      : 'Once the run succeeds, a write that fails it is refused and sent to dead letters.';
  return `${lead} ${then}`;
}

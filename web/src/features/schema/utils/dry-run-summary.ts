import type { PolicyDryRunReport } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { formatCount } from '../../../lib/format';

/** Groups named in the one-line summary; the table below lists them all. */
const SUMMARY_GROUPS = 3;

/**
 * One line for the policy editor: "12 of 40 000 entries would be refused; 11 × /email format,
 * 1 × /age minimum". The whole value reads "(root)".
 */
export function dryRunSummary(report: PolicyDryRunReport): string {
  const head = `${formatCount(report.failing)} of ${formatCount(report.scanned)} ${
    report.scanned === 1n ? 'entry' : 'entries'
  } would be refused`;
  if (report.failing === 0n) return head;
  const groups = report.groups
    .slice(0, SUMMARY_GROUPS)
    .map((g) => `${formatCount(g.entryCount)} × ${g.instancePath || '(root)'} ${g.keyword}`);
  const more = report.groups.length > SUMMARY_GROUPS || report.otherFailures > 0n ? ', …' : '';
  return `${head}; ${groups.join(', ')}${more}`;
}

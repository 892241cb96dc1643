import { BackupHealthStatus, StoreOperationKind, StoreOperationState } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { operation } from '../../testing/fixtures';
import { operationFindings, operationOutcome, stateOutcome } from './operation-outcome';

const succeeded = (init: Parameters<typeof operation>[0]) =>
  operation({ state: StoreOperationState.SUCCEEDED, ...init });

describe('operationOutcome', () => {
  it('warns when "verify stale backups" succeeded but found corrupt and missing backups', () => {
    const op = succeeded({
      kind: StoreOperationKind.STALE_HEALTH_CHECK,
      result: {
        case: 'staleHealthCheck',
        value: { checked: 5n, healthy: 2n, corrupt: 1n, missing: 2n, degraded: 0n },
      },
    });
    expect(operationOutcome(op)).toEqual({
      tone: 'warning',
      label: 'Succeeded — 1 corrupt, 2 missing',
      findings: ['1 corrupt', '2 missing'],
    });
  });

  it('warns when an automatic retention apply stopped instead of deleting; a plain apply stays green', () => {
    const stopped = succeeded({
      kind: StoreOperationKind.RETENTION_APPLY,
      result: { case: 'retentionApply', value: { stoppedReason: 'Stopped, nothing deleted: …' } },
    });
    expect(operationOutcome(stopped)).toEqual({
      tone: 'warning',
      label: 'Succeeded — stopped, nothing deleted',
      findings: ['stopped, nothing deleted'],
    });
    const applied = succeeded({
      kind: StoreOperationKind.RETENTION_APPLY,
      result: { case: 'retentionApply', value: { deletedCount: 2n } },
    });
    expect(operationOutcome(applied).tone).toBe('success');
  });

  it('stays a plain green success when the check found every backup healthy', () => {
    const op = succeeded({
      kind: StoreOperationKind.STALE_HEALTH_CHECK,
      result: { case: 'staleHealthCheck', value: { checked: 3n, healthy: 3n } },
    });
    expect(operationOutcome(op)).toEqual({ tone: 'success', label: 'Succeeded', findings: [] });
  });

  it("names a single backup's health check verdict when it is not healthy", () => {
    const corrupt = succeeded({
      kind: StoreOperationKind.BACKUP_HEALTH_CHECK,
      result: {
        case: 'healthReport',
        value: { status: BackupHealthStatus.CORRUPT, issues: [{}, {}] },
      },
    });
    expect(operationOutcome(corrupt).label).toBe('Succeeded — corrupt');
    const healthy = succeeded({
      kind: StoreOperationKind.BACKUP_HEALTH_CHECK,
      result: { case: 'healthReport', value: { status: BackupHealthStatus.HEALTHY } },
    });
    expect(operationOutcome(healthy).tone).toBe('success');
  });

  it("counts a scrub's problems by kind, orphans in the right number", () => {
    const one = succeeded({
      kind: StoreOperationKind.CATALOG_SCRUB,
      result: {
        case: 'scrub',
        value: {
          rowsChecked: 4,
          orphansFound: 1,
          findings: [
            { problem: 'orphan', artifactId: 'a-1' },
            { problem: 'missing', backupId: 'b-1' },
          ],
        },
      },
    });
    expect(operationOutcome(one).label).toBe('Succeeded — 1 missing, 1 orphan');
    const two = succeeded({
      kind: StoreOperationKind.CATALOG_SCRUB,
      result: {
        case: 'scrub',
        value: { orphansFound: 2, findings: [{ problem: 'orphan' }, { problem: 'orphan' }] },
      },
    });
    expect(operationFindings(two)).toEqual(['2 orphans']);
  });

  it('warns for a compliance scan with violations and a remediation that dead-lettered entries', () => {
    const scan = succeeded({
      result: { case: 'complianceReport', value: { scanned: 10n, nonCompliant: 3n } },
    });
    expect(operationOutcome(scan).label).toBe('Succeeded — 3 non-compliant');
    const remediation = succeeded({
      result: { case: 'remediationReport', value: { failed: 0n, deadLettered: 1n } },
    });
    expect(operationOutcome(remediation).label).toBe('Succeeded — 1 dead-lettered');
  });

  it('reads only a succeeded run: a failed or running one keeps its own state', () => {
    const failed = operation({
      state: StoreOperationState.FAILED,
      result: { case: 'staleHealthCheck', value: { corrupt: 1n } },
    });
    expect(operationOutcome(failed)).toEqual({ tone: 'danger', label: 'Failed', findings: [] });
    expect(operationOutcome(operation()).tone).toBe('info');
    expect(stateOutcome(StoreOperationState.CANCELLED).tone).toBe('neutral');
  });
});

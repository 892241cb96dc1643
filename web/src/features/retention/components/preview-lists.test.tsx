import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import {
  BackupHealthStatus,
  BackupKind,
  KeepReasonKind,
  RetentionAction,
  RetentionPreviewEntrySchema,
  RetentionPreviewSchema,
  StoreRetentionApplyResultSchema,
} from '@store/contract';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { RetentionApplySummary } from '../../../components/operations/retention-apply-summary';
import { formatCompact } from '../../../lib/format';
import { PreviewLists } from './preview-lists';

const FOUND = Date.UTC(2026, 10, 27, 9, 30);
const CHECKED = Date.UTC(2026, 10, 26, 8, 0);

/** The admin's case as the server previews it: full 4 corrupt, keep-last 2 over the healthy ones. */
const preview = create(RetentionPreviewSchema, {
  fingerprint: 'fp',
  deleteCount: 1n,
  keepCount: 3n,
  bytesFreed: 1024n,
  entries: [
    {
      backupId: 'b1',
      name: 'full 1',
      createdAt: timestampFromMs(60_000),
      byteSize: 1024n,
      kind: BackupKind.FULL,
      action: RetentionAction.DELETE,
      healthStatus: BackupHealthStatus.UNSPECIFIED,
    },
    {
      backupId: 'b4',
      name: 'full 4',
      createdAt: timestampFromMs(240_000),
      byteSize: 1024n,
      kind: BackupKind.FULL,
      action: RetentionAction.KEEP,
      reasons: [
        {
          kind: KeepReasonKind.DAMAGED,
          text: 'corrupt: kept until deleted by hand, never counted by a rule',
          since: timestampFromMs(FOUND),
        },
      ],
      healthStatus: BackupHealthStatus.CORRUPT,
      lastVerifiedAt: timestampFromMs(FOUND),
      damagedSince: timestampFromMs(FOUND),
    },
    {
      backupId: 'b3',
      name: 'full 3',
      createdAt: timestampFromMs(180_000),
      byteSize: 1024n,
      kind: BackupKind.FULL,
      action: RetentionAction.KEEP,
      reasons: [{ kind: KeepReasonKind.LAST, text: 'last 1 of 2' }],
      healthStatus: BackupHealthStatus.HEALTHY,
      lastVerifiedAt: timestampFromMs(CHECKED),
    },
    {
      backupId: 'b2',
      name: 'full 2',
      createdAt: timestampFromMs(120_000),
      byteSize: 1024n,
      kind: BackupKind.FULL,
      action: RetentionAction.KEEP,
      reasons: [{ kind: KeepReasonKind.LAST, text: 'last 2 of 2' }],
      healthStatus: BackupHealthStatus.UNSPECIFIED,
    },
  ],
});

/** The row of a backup, by its name's link. */
function rowOf(name: string): HTMLElement {
  return screen.getByRole('link', { name }).closest('tr')!;
}

describe('retention preview shows health', () => {
  it("shows each backup's health; the corrupt one is kept by its own reason, with since when, and never as a keep-last", () => {
    render(
      <MemoryRouter>
        <PreviewLists preview={preview} />
      </MemoryRouter>,
    );
    const corrupt = within(rowOf('full 4'));
    expect(corrupt.getByTestId('backup-health').textContent).toContain('Corrupt');
    const reasons = corrupt.getByTestId('keep-reasons').textContent ?? '';
    expect(reasons).toContain('Corrupt: kept until deleted by hand, never counted by a rule');
    expect(reasons).toContain(`since ${formatCompact(new Date(FOUND))}`);
    expect(reasons).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    expect(reasons).not.toContain('Last');

    const healthy = within(rowOf('full 3'));
    expect(healthy.getByTestId('backup-health').textContent).toBe(
      `Healthychecked ${formatCompact(new Date(CHECKED))}`,
    );
    expect(healthy.getByTestId('keep-reasons').textContent).toBe('Last 1 of 2');
    expect(within(rowOf('full 2')).getByTestId('backup-health').textContent).toBe('Not verified');
    // The deletion list shows health too.
    expect(within(rowOf('full 1')).getByTestId('backup-health').textContent).toBe('Not verified');
    expect(screen.getByTestId('retention-damaged-note').textContent).toContain(
      '1 backup listed here was found damaged by a health check: no rule counts it',
    );
  });

  it('a preview without damage says nothing about it', () => {
    const clean = create(RetentionPreviewSchema, {
      ...preview,
      entries: preview.entries.filter((e) => e.backupId !== 'b4'),
    });
    render(
      <MemoryRouter>
        <PreviewLists preview={clean} />
      </MemoryRouter>,
    );
    expect(screen.queryByTestId('retention-damaged-note')).toBeNull();
    expect(screen.getAllByTestId('backup-health')).toHaveLength(3);
  });

  it('the apply summary names the damaged backups it kept, with since when, and the health of what it deleted', () => {
    const result = create(StoreRetentionApplyResultSchema, {
      scope: { treeId: 'inventory' },
      deletedCount: 1n,
      bytesFreed: 1024n,
      keptCount: 3n,
      deleted: [
        {
          backupId: 'b1',
          name: 'full 1',
          byteSize: 1024n,
          healthStatus: BackupHealthStatus.HEALTHY,
        },
      ],
      keptDamaged: [
        {
          backupId: 'b4',
          name: 'full 4',
          healthStatus: BackupHealthStatus.CORRUPT,
          damagedSince: timestampFromMs(FOUND),
        },
      ],
      keptDamagedCount: 1n,
    });
    render(
      <MemoryRouter>
        <RetentionApplySummary result={result} />
      </MemoryRouter>,
    );
    const kept = screen.getByTestId('retention-kept-damaged').textContent ?? '';
    expect(kept).toContain('1 backup found damaged by a health check');
    expect(kept).toContain(`full 4 corrupt since ${formatCompact(new Date(FOUND))}`);
    expect(screen.getByTestId('retention-apply-summary').textContent).toContain(
      '1.0 KiB, verified healthy',
    );
  });

  it('the newest proven restorable backup is kept by its own reason, in its own colour, saying the rules alone would delete it', () => {
    const proven = create(RetentionPreviewSchema, {
      ...preview,
      entries: [
        ...preview.entries,
        create(RetentionPreviewEntrySchema, {
          backupId: 'b0',
          name: 'full 0',
          createdAt: timestampFromMs(30_000),
          byteSize: 1024n,
          kind: BackupKind.FULL,
          action: RetentionAction.KEEP,
          reasons: [
            {
              kind: KeepReasonKind.PROVEN_RESTORABLE,
              text: 'newest proven restorable: your rules alone would delete it',
            },
          ],
          healthStatus: BackupHealthStatus.HEALTHY,
        }),
      ],
    });
    render(
      <MemoryRouter>
        <PreviewLists preview={proven} />
      </MemoryRouter>,
    );
    const reasons = within(rowOf('full 0')).getByTestId('keep-reasons');
    expect(reasons.textContent).toBe('Newest proven restorable: your rules alone would delete it');
    expect(reasons.querySelector('.badge--info')).not.toBeNull();
    expect(
      within(rowOf('full 3')).getByTestId('keep-reasons').querySelector('.badge--success'),
    ).not.toBeNull();
  });
});

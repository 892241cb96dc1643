import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import type { ConnectRouter } from '@connectrpc/connect';
import {
  BackupComparisonKind,
  BackupDifferenceChange,
  BackupInsightService,
  IdentityService,
  StoreOperationKind,
  StoreOperationState,
} from '@store/contract';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { operation, whoAmI } from '../../testing/fixtures';
import { createTestApp, testSession, wrapperFor } from '../../testing/render-app';
import { ComparisonView } from './comparison-view';

const EXPIRES_AT = Date.UTC(2026, 10, 28, 12, 0);

/** A succeeded preview of 40 changed keys of which 5 are stored, seen by `role`. */
function previewServer(role: 'viewer' | 'operator' | 'admin', expired = false) {
  const keeps: boolean[] = [];
  let kept = false;
  const comparison = () => ({
    report: {
      operationId: 'op-p',
      kind: BackupComparisonKind.RESTORE_PREVIEW,
      treeId: 'orders',
      counts: { added: 0n, changed: 40n, removed: 0n, unchanged: 0n },
    },
    storage: {
      stored: 5n,
      truncated: true,
      kept,
      expired,
      ...(!kept && { expiresAt: timestampFromMs(EXPIRES_AT) }),
    },
  });
  const withheld = role === 'viewer';
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, {
      whoAmI: () => whoAmI({ tenants: [{ tenantId: 'acme', roles: [role] }] }),
    });
    router.service(BackupInsightService, {
      getBackupInsightOperationStatus: () => ({
        status: operation({
          operationId: 'op-p',
          kind: StoreOperationKind.RESTORE_PREVIEW,
          state: StoreOperationState.SUCCEEDED,
        }),
      }),
      getBackupComparison: comparison,
      keepBackupComparison: (request) => {
        keeps.push(request.release);
        kept = !request.release;
        return comparison();
      },
      listBackupDifferences: () => ({
        differences: ['k000', 'k001'].map((key) => ({
          key,
          change: BackupDifferenceChange.CHANGED,
          ...(!withheld && { beforeJson: '{"v":2}', afterJson: '{"v":1}' }),
        })),
        truncated: true,
        storedCount: 5n,
        totalCount: 40n,
        valuesWithheld: withheld,
      }),
    });
  };
  const app = createTestApp(routes, { session: testSession });
  render(<ComparisonView operationId="op-p" title="Restore preview" legend="Before: the tree." />, {
    wrapper: wrapperFor(app),
  });
  return { keeps };
}

describe('a comparison with bounded preview storage', () => {
  it('says the list shows the first 5 of 40 differences', async () => {
    previewServer('operator');
    expect((await screen.findByTestId('differences-truncated')).textContent).toMatch(
      /^Showing the first 5 of 40 differences/,
    );
    expect(await screen.findAllByTestId('difference')).toHaveLength(2);
    expect(screen.queryByTestId('differences-values-withheld')).toBeNull();
  });

  it('a viewer sees keys and changes with a note that values need the operator role', async () => {
    previewServer('viewer');
    const items = await screen.findAllByTestId('difference');
    expect(items.map((d) => d.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      'k000 Changed',
      'k001 Changed',
    ]);
    expect(screen.getByTestId('differences-values-withheld').textContent).toMatch(
      /Values need the operator role/,
    );
  });

  it('an admin keeps the differences, then stops keeping them', async () => {
    const { keeps } = previewServer('admin');
    const enabled = (name: string) =>
      waitFor(() => {
        const button = screen.getByRole('button', { name }) as HTMLButtonElement;
        expect(button.disabled).toBe(false);
        return button;
      });
    fireEvent.click(await enabled('Keep differences'));
    expect(await screen.findByText(/they last as long as the operation/)).toBeTruthy();
    fireEvent.click(await enabled('Stop keeping'));
    await waitFor(() => expect(keeps).toEqual([false, true]));
    expect(await screen.findByRole('button', { name: 'Keep differences' })).toBeTruthy();
  });

  it('Keep is disabled for an operator, with the reason', async () => {
    previewServer('operator');
    const keep = (await screen.findByRole('button', {
      name: 'Keep differences',
    })) as HTMLButtonElement;
    await waitFor(() => expect(keep.disabled).toBe(true));
    expect(screen.getByTestId('difference-storage').textContent).toMatch(/admin/);
  });

  it('expired differences are not listed; the note says to run it again', async () => {
    previewServer('admin', true);
    expect((await screen.findByTestId('differences-expired')).textContent).toMatch(
      /expired at .*run the restore preview again/,
    );
    expect(screen.queryByTestId('difference')).toBeNull();
  });
});

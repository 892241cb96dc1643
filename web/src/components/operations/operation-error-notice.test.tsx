import { create } from '@bufbuild/protobuf';
import type { ConnectRouter } from '@connectrpc/connect';
import {
  IdentityService,
  StoreOperationKind,
  StoreOperationState,
  StoreOperationStatusSchema,
} from '@store/contract';
import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { recordOwnCancel } from '../../lib/operations/own-cancels';
import { whoAmI } from '../../testing/fixtures';
import { createTestApp, testSession, wrapperFor } from '../../testing/render-app';
import { cancelledText, OperationErrorNotice } from './operation-error-notice';

function cancelled(id: string, cancelledBy?: string) {
  return create(StoreOperationStatusSchema, {
    operationId: id,
    kind: StoreOperationKind.BACKUP,
    state: StoreOperationState.CANCELLED,
    error: { code: 'cancelled', message: 'the operation was cancelled' },
    ...(cancelledBy !== undefined && { cancelledBy }),
  });
}

function renderNotice(id: string, cancelledBy: string | undefined) {
  const routes = (router: ConnectRouter) =>
    router.service(IdentityService, {
      whoAmI: () => whoAmI(),
      resolveSubjects: ({ subjects }) => ({
        subjects: subjects.map((subject) => ({
          subject,
          displayName: subject === 'token:t-7' ? 'night shift' : subject,
          kind: 'token',
          named: subject === 'token:t-7',
        })),
      }),
    });
  const Wrapper = wrapperFor(createTestApp(routes, { session: testSession }));
  return render(
    <Wrapper>
      <OperationErrorNotice operation={cancelled(id, cancelledBy)} />
    </Wrapper>,
  );
}

describe('Cancelled by <who>', () => {
  beforeEach(() => sessionStorage.clear());

  it("names whoever cancelled it by the server's name for them, not only this tab's cancels", async () => {
    renderNotice('op-1', 'token:t-7');
    expect(await screen.findByText('Cancelled by night shift before it finished.')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('without a name from the server, says the readable part of the recorded subject', () => {
    expect(cancelledText(cancelled('op-2', 'token:t-9'))).toBe('Cancelled by API token t-9');
    expect(cancelledText(cancelled('op-2', 'scheduler'))).toBe('Cancelled by Scheduler');
  });

  it("falls back to this tab's own cancel (an older server), else plain Cancelled", () => {
    recordOwnCancel('op-3', 'Alice Admin');
    expect(cancelledText(cancelled('op-3'))).toBe('Cancelled by Alice Admin');
    expect(cancelledText(cancelled('op-4'))).toBe('Cancelled');
    // The server's record wins over the tab's memory.
    expect(cancelledText(cancelled('op-3', 'token:t-9'))).toBe('Cancelled by API token t-9');
  });
});

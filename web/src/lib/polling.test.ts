import { StoreOperationState } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { detailPollInterval, FAST_POLL_MS, listPollInterval, SLOW_POLL_MS } from './polling';

const op = (state: StoreOperationState) => ({ state });
const { QUEUED, RUNNING, SUCCEEDED, FAILED, CANCELLED } = StoreOperationState;

describe('listPollInterval', () => {
  it('polls fast while any shown operation is queued', () => {
    expect(listPollInterval([op(SUCCEEDED), op(QUEUED), op(FAILED)])).toBe(FAST_POLL_MS);
  });

  it('polls fast while any shown operation is running', () => {
    expect(listPollInterval([op(CANCELLED), op(RUNNING)])).toBe(FAST_POLL_MS);
  });

  it('polls slowly when every shown operation has finished', () => {
    expect(listPollInterval([op(SUCCEEDED), op(FAILED), op(CANCELLED)])).toBe(SLOW_POLL_MS);
  });

  it('polls slowly when there is nothing to show or nothing loaded yet', () => {
    expect(listPollInterval([])).toBe(SLOW_POLL_MS);
    expect(listPollInterval(undefined)).toBe(SLOW_POLL_MS);
  });

  it('uses the named intervals of one second and fifteen seconds', () => {
    expect(FAST_POLL_MS).toBe(1_000);
    expect(SLOW_POLL_MS).toBe(15_000);
  });
});

describe('detailPollInterval', () => {
  it('polls fast until the operation is terminal', () => {
    expect(detailPollInterval(undefined)).toBe(FAST_POLL_MS);
    expect(detailPollInterval(op(QUEUED))).toBe(FAST_POLL_MS);
    expect(detailPollInterval(op(RUNNING))).toBe(FAST_POLL_MS);
  });

  it('stops once the operation is terminal, since a terminal state never changes', () => {
    expect(detailPollInterval(op(SUCCEEDED))).toBe(false);
    expect(detailPollInterval(op(FAILED))).toBe(false);
    expect(detailPollInterval(op(CANCELLED))).toBe(false);
  });

  it('stops when neither service knows the operation', () => {
    expect(detailPollInterval(null)).toBe(false);
  });
});

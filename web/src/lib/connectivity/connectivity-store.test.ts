import { Code, ConnectError } from '@connectrpc/connect';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { explainError } from '../errors';
import { createQueryClient } from '../query-client';
import { ToastStore } from '../toast/toast-store';
import { ConnectivityStore, RETRY_DELAYS_MS } from './connectivity-store';
import { isNetworkFailure } from './network-failure';

const fetchFailed = () => new TypeError('Failed to fetch');

describe('isNetworkFailure', () => {
  it('is a call that got no answer: fetch’s TypeError as connect wraps it, or Unavailable', () => {
    expect(isNetworkFailure(ConnectError.from(fetchFailed()))).toBe(true);
    expect(isNetworkFailure(new ConnectError('upstream connect error', Code.Unavailable))).toBe(
      true,
    );
    expect(isNetworkFailure(new ConnectError('HTTP 503', Code.Unavailable))).toBe(true);
    expect(isNetworkFailure(new ConnectError('no healthy upstream', Code.Unavailable))).toBe(true);
    expect(
      isNetworkFailure(new ConnectError('the server is shutting down', Code.Unavailable)),
    ).toBe(true);
    // Firefox's wording, with the cause lost on the way.
    expect(
      isNetworkFailure(new ConnectError('NetworkError when attempting to fetch resource.')),
    ).toBe(true);
  });

  it('is not a refusal the server made, nor a check the console made before sending', () => {
    expect(isNetworkFailure(new ConnectError('not permitted', Code.PermissionDenied))).toBe(false);
    expect(isNetworkFailure(new ConnectError('no such backup', Code.NotFound))).toBe(false);
    expect(isNetworkFailure(new ConnectError('boom', Code.Unknown))).toBe(false);
    // The server's own Unavailable about what is behind it: it answered.
    expect(
      isNetworkFailure(new ConnectError('the object store did not answer', Code.Unavailable)),
    ).toBe(false);
    // A typed client's argument check is a plain TypeError, never sent.
    expect(isNetworkFailure(new TypeError('treeId must be a string'))).toBe(false);
  });
});

describe('ConnectivityStore', () => {
  afterEach(() => vi.useRealTimers());

  it('turns unreachable at a network failure, with the time it began, and not at a refusal', () => {
    const at = new Date('2026-11-27T13:05:12Z');
    const store = new ConnectivityStore(() => at);
    store.reportFailure(new ConnectError('not permitted', Code.PermissionDenied));
    expect(store.getSnapshot().unreachableSince).toBeNull();
    store.reportFailure(fetchFailed());
    expect(store.getSnapshot().unreachableSince).toEqual(at);
    store.dispose();
  });

  it('tries the server with growing waits while it is gone, and is reachable at its first answer', async () => {
    vi.useFakeTimers();
    let up = false;
    const probe = vi.fn(() => (up ? Promise.resolve({}) : Promise.reject(fetchFailed())));
    const store = new ConnectivityStore();
    store.setProbe(probe);
    const changes = vi.fn();
    store.subscribe(changes);

    store.reportFailure(fetchFailed());
    const since = store.getSnapshot().unreachableSince;
    expect(since).not.toBeNull();
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[0]);
    expect(probe).toHaveBeenCalledTimes(1);
    // The second wait is longer than the first: nothing at the first one's length again.
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[0]);
    expect(probe).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[1] - RETRY_DELAYS_MS[0]);
    expect(probe).toHaveBeenCalledTimes(2);
    // Still the first failure's time: the banner says since when, not since the last try.
    expect(store.getSnapshot().unreachableSince).toBe(since);

    up = true;
    await vi.advanceTimersByTimeAsync(RETRY_DELAYS_MS[2]);
    expect(probe).toHaveBeenCalledTimes(3);
    expect(store.getSnapshot()).toEqual({ unreachableSince: null, nextTryAt: null });
    // Reachable again: no more tries.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(probe).toHaveBeenCalledTimes(3);
    expect(changes).toHaveBeenCalled();
  });

  it('counts a server that answers the probe with a refusal as back, and retries at once on request', async () => {
    vi.useFakeTimers();
    const store = new ConnectivityStore();
    store.setProbe(() => Promise.reject(new ConnectError('no schemes', Code.Unimplemented)));
    store.reportFailure(fetchFailed());
    store.retryNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(store.reachable).toBe(true);
  });

  it('any answered call ends it, without waiting for the probe', () => {
    const store = new ConnectivityStore();
    store.reportFailure(new ConnectError('no healthy upstream', Code.Unavailable));
    expect(store.reachable).toBe(false);
    store.reportAnswer();
    expect(store.reachable).toBe(true);
  });
});

describe('what the console says of a failure that never reached the server', () => {
  it('names the network, not the server, and keeps the raw words for the details', () => {
    const explained = explainError(ConnectError.from(fetchFailed()));
    expect(explained.what).toBe('The console could not reach the server.');
    expect(explained.what).not.toMatch(/did not explain/);
    expect(explained.raw).toBe('Failed to fetch');
  });

  it('the server’s own Unavailable is the server’s: it answered, the network is not blamed', () => {
    const explained = explainError(
      new ConnectError('the object store did not answer', Code.Unavailable),
    );
    expect(explained.what).toBe(
      'The server cannot do this right now: the object store did not answer.',
    );
  });

  it('a failed action says what that means for it, in one toast', async () => {
    const toasts = new ToastStore();
    const client = createQueryClient(toasts);
    const mutation = client.getMutationCache().build(client, {
      mutationFn: () => Promise.reject(ConnectError.from(fetchFailed())),
      meta: { errorTitle: 'Backup not started' },
    });
    await expect(mutation.execute(undefined)).rejects.toThrow('Failed to fetch');
    const [toast] = toasts.getSnapshot();
    expect(toast?.title).toBe('Backup not started');
    expect(toast?.detail).toMatch(/could not reach the server, so this may not have been done/);
    expect(toasts.getSnapshot()).toHaveLength(1);
  });
});

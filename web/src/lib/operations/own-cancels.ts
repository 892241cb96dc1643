import { readSessionJson, writeSessionJson } from '../storage';

/**
 * Who cancelled an operation, when it was cancelled from this browser tab. The server records the
 * canceller (cancelled_by); an older server does not, so the console also remembers its own
 * cancels: there an operation cancelled here reads "Cancelled by <you>", another just "Cancelled".
 */
export const OWN_CANCELS_KEY = 'store.ownCancels';

/** Enough for a day of cancels; the oldest are forgotten first. */
const KEEP = 200;

type OwnCancels = Record<string, string>;

function read(): OwnCancels {
  const stored = readSessionJson<OwnCancels>(OWN_CANCELS_KEY);
  return stored && typeof stored === 'object' ? stored : {};
}

export function recordOwnCancel(operationId: string, by: string): void {
  const entries = Object.entries(read()).filter(([id]) => id !== operationId);
  entries.push([operationId, by]);
  writeSessionJson(OWN_CANCELS_KEY, Object.fromEntries(entries.slice(-KEEP)));
}

/** Who cancelled it from this tab, or undefined when it was not cancelled here. */
export function ownCancelBy(operationId: string): string | undefined {
  const by = read()[operationId];
  return typeof by === 'string' && by !== '' ? by : undefined;
}

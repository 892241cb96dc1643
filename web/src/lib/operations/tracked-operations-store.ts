import type { StoreOperationKind, StoreOperationState } from '@store/contract';
import { readSessionJson, writeSessionJson } from '../storage';
import { familyOf, OPERATION_FAMILIES, type OperationFamily } from './operation-kinds';

/** An operation the tray follows: started here, or seen queued/running in this session. */
export interface TrackedOperation {
  tenant: string;
  operationId: string;
  kind: StoreOperationKind;
  family: OperationFamily;
  /** The terminal state once the tray saw it finish; the entry stays until dismissed. */
  outcome?: StoreOperationState | undefined;
}

export const TRAY_STORAGE_KEY = 'store.tray';

/**
 * The ids the operations tray follows, per tenant. Kept in sessionStorage so a reload keeps
 * showing finished operations until the user dismisses them.
 */
export class TrackedOperationsStore {
  private entries: readonly TrackedOperation[];
  private readonly listeners = new Set<() => void>();

  constructor() {
    const stored = readSessionJson<TrackedOperation[]>(TRAY_STORAGE_KEY);
    this.entries = Array.isArray(stored) ? stored.filter(isTracked) : [];
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): readonly TrackedOperation[] => this.entries;

  /** Starts following an operation; a second call for the same id changes nothing. */
  follow(tenant: string, operation: { operationId: string; kind: StoreOperationKind }): void {
    if (this.find(tenant, operation.operationId)) return;
    this.set([
      ...this.entries,
      {
        tenant,
        operationId: operation.operationId,
        kind: operation.kind,
        family: familyOf(operation.kind),
      },
    ]);
  }

  /** Records the terminal state; returns true the first time, so the caller announces it once. */
  finish(tenant: string, operationId: string, outcome: StoreOperationState): boolean {
    const entry = this.find(tenant, operationId);
    if (!entry || entry.outcome !== undefined) return false;
    this.set(this.entries.map((e) => (e === entry ? { ...e, outcome } : e)));
    return true;
  }

  dismiss(tenant: string, operationId: string): void {
    this.set(this.entries.filter((e) => !(e.tenant === tenant && e.operationId === operationId)));
  }

  /** Forgets every finished operation of the tenant. */
  dismissFinished(tenant: string): void {
    this.set(this.entries.filter((e) => e.tenant !== tenant || e.outcome === undefined));
  }

  /** Forgets everything in memory (the session ended; its storage is cleared by the caller). */
  clear(): void {
    this.entries = [];
    for (const listener of this.listeners) listener();
  }

  private find(tenant: string, operationId: string): TrackedOperation | undefined {
    return this.entries.find((e) => e.tenant === tenant && e.operationId === operationId);
  }

  private set(entries: readonly TrackedOperation[]): void {
    this.entries = entries;
    writeSessionJson(TRAY_STORAGE_KEY, entries);
    for (const listener of this.listeners) listener();
  }
}

function isTracked(value: unknown): value is TrackedOperation {
  const e = value as Partial<TrackedOperation> | null;
  return (
    typeof e?.tenant === 'string' &&
    typeof e.operationId === 'string' &&
    typeof e.kind === 'number' &&
    OPERATION_FAMILIES.includes(e.family as OperationFamily)
  );
}

import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DIALECTS,
  openTestStorage,
  removeStorageLocation,
} from '../../../test/support/test-storage.js';
import { AuditStore, type AuditRecord } from '../../storage/audit-store.js';
import { AuditTrail, type AuditEntry } from './audit-trail.js';

const entry = (method: string): AuditEntry => ({
  tenant: 'acme',
  subject: 'token:t',
  service: 'store.data.v1.TreeDataService',
  method,
  targetId: 'orders',
  outcome: 'OK',
  clientAddress: '127.0.0.1',
  detail: '',
});

/** The real store, counting its INSERT statements. */
class CountingStore extends AuditStore {
  inserts = 0;
  override async insert(records: readonly AuditRecord[]): Promise<void> {
    this.inserts += 1;
    await super.insert(records);
  }
}

describe.each(DIALECTS)('AuditTrail on %s', (dialect) => {
  const disposers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const dispose of disposers.splice(0)) await dispose();
  });

  async function trailOn(logLines: string[] = []) {
    const storage = await openTestStorage(dialect);
    disposers.push(() => storage.dispose());
    const store = new CountingStore(storage);
    const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
    const trail = new AuditTrail({ store, logger, retentionMs: 86_400_000 });
    return { storage, store, trail };
  }

  it('writes the records of a burst in one INSERT, and every one of them', async () => {
    const { store, trail } = await trailOn();
    const written = Array.from({ length: 300 }, (_, i) => trail.record(entry(`M${i}`)));
    await Promise.all(written);
    expect(store.inserts).toBe(1);
    const page = await trail.list('acme', false, { pageSize: 1000 });
    expect(page.records).toHaveLength(300);
  });

  it('holds a routine record for company; an urgent one writes the batch on the next turn', async () => {
    const { store, trail } = await trailOn();
    let routineDone = false;
    void trail.record(entry('Routine')).then(() => (routineDone = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.inserts).toBe(0);
    await trail.record(entry('Refused'), { urgent: true });
    expect(store.inserts).toBe(1);
    await Promise.resolve();
    expect(routineDone).toBe(true);
    const methods = (await trail.list('acme', false, {})).records.map((r) => r.method);
    expect(methods.sort()).toEqual(['Refused', 'Routine']);
  });

  it('logs every record of a batch it cannot store, and still resolves', async () => {
    const lines: string[] = [];
    const { storage, trail } = await trailOn(lines);
    await storage.close();
    // Closed already: only its location is left to remove.
    disposers.pop();
    disposers.push(() => removeStorageLocation(storage.location));
    await trail.record(entry('Lost1'), { urgent: true });
    const logged = lines.map(
      (line) => JSON.parse(line) as { msg: string; auditRecord?: AuditRecord },
    );
    expect(
      logged
        .filter((l) => l.msg === 'audit record could not be stored')
        .map((l) => l.auditRecord?.method),
    ).toEqual(['Lost1']);
  });
});

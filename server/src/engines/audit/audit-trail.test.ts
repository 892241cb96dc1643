import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DIALECTS,
  openTestStorage,
  removeStorageLocation,
} from '../../../test/support/test-storage.js';
import { AuditStore, type AuditRecord } from '../../storage/audit/audit-store.js';
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

  async function trailOn(logLines: string[] = [], pageBytesMax?: number) {
    const storage = await openTestStorage(dialect);
    disposers.push(() => storage.dispose());
    const store = new CountingStore(storage);
    const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
    const trail = new AuditTrail({
      store,
      logger,
      retentionMs: 86_400_000,
      ...(pageBytesMax !== undefined && { pageBytesMax }),
    });
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

  it('stores every field cut to its length, whoever records it', async () => {
    const { trail } = await trailOn();
    await trail.record({ ...entry('PutEntry'), targetId: 'x'.repeat(100_000) }, { urgent: true });
    const [record] = (await trail.list('acme', false, {})).records;
    expect(record?.targetId).toMatch(/^x+… \[100000 chars\]$/);
    expect(record?.targetId?.length).toBeLessThanOrEqual(512);
  });

  it('cuts a page short at its byte budget; the next-page token goes on from there', async () => {
    // Each record carries ~500 bytes of detail: a budget of 2 000 bytes holds three of them.
    const { trail } = await trailOn([], 2_000);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        trail.record({ ...entry(`M${i}`), detail: 'd'.repeat(490) }, { urgent: true }),
      ),
    );
    const first = await trail.list('acme', false, { pageSize: 10 });
    expect(first.records).toHaveLength(3);
    expect(first.nextPageToken).not.toBe('');
    const seen = [...first.records];
    let token = first.nextPageToken;
    while (token !== '') {
      const page = await trail.list('acme', false, { pageSize: 10, pageToken: token });
      seen.push(...page.records);
      token = page.nextPageToken;
    }
    expect(new Set(seen.map((r) => r.id)).size).toBe(10);
  });

  it('names the targets of a page in one lookup, of the tenant’s own records only', async () => {
    const storage = await openTestStorage(dialect);
    disposers.push(() => storage.dispose());
    const asked: Array<[string, readonly string[]]> = [];
    const trail = new AuditTrail({
      store: new AuditStore(storage),
      logger: pino({ level: 'silent' }),
      retentionMs: 86_400_000,
      targetNames: {
        namesOf: (tenant, ids) => {
          asked.push([tenant, ids]);
          return Promise.resolve(new Map([['b-1', 'full 1']]));
        },
      },
    });
    await trail.record({ ...entry('DeleteBackup'), targetId: 'b-1' });
    await trail.record({ ...entry('PutEntry'), targetId: 'orders' });
    // An unscoped refusal naming the same id belongs to no tenant: it is not looked up.
    await trail.record({ ...entry('DeleteBackup'), tenant: '', targetId: 'b-1' }, { urgent: true });
    await trail.flush();
    const { records } = await trail.list('acme', true, {});
    expect(asked.map(([tenant, ids]) => [tenant, [...ids].sort()])).toEqual([
      ['acme', ['b-1', 'orders']],
    ]);
    const byMethod = records.map((r) => [r.tenant, r.method, r.targetName]);
    expect(byMethod).toEqual(
      expect.arrayContaining([
        ['acme', 'DeleteBackup', 'full 1'],
        ['acme', 'PutEntry', undefined],
        ['', 'DeleteBackup', undefined],
      ]),
    );
  });
});

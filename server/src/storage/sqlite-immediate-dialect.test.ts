import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { storagePerTest } from '../../test/support/storage-per-test.js';
import { withTransaction } from './data/tree-db.js';

// A second process's write, as the token CLI makes one: its own connection, on a thread, so
// this thread can keep its transaction open while the other waits for the lock.
const OTHER_WRITER = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file);
db.pragma('busy_timeout = 5000');
parentPort.postMessage('ready');
try {
  db.prepare("insert into settings_probe (name) values ('other')").run();
  parentPort.postMessage('written');
} catch (error) {
  parentPort.postMessage('failed: ' + error.message);
}
db.close();
`;

describe('SQLite transactions against a writer in another process', () => {
  const freshStorage = storagePerTest('sqlite');

  it('a transaction that reads first and writes later is not refused because another connection wrote in between', async () => {
    const storage = await freshStorage();
    await sql`create table settings_probe (name text not null)`.execute(storage.db);
    const file = storage.sqliteFile;
    if (!file) throw new Error('no SQLite file');

    const outcome = await withTransaction(storage, async (tx) => {
      await sql`select count(*) from settings_probe`.execute(tx.db);
      const other = new Worker(OTHER_WRITER, {
        eval: true,
        workerData: { file, driver: createRequire(import.meta.url).resolve('better-sqlite3') },
      });
      const messages: string[] = [];
      const done = new Promise<string[]>((resolve) => {
        other.on('message', (m: string) => messages.push(m));
        other.once('exit', () => resolve(messages));
      });
      await new Promise<void>((resolve) => other.once('message', () => resolve()));
      // Give the other writer time to commit, had this transaction left it the lock.
      await new Promise((r) => setTimeout(r, 200));
      await sql`insert into settings_probe (name) values ('mine')`.execute(tx.db);
      // Not awaited here: the other writer may be waiting for this commit.
      return { done };
    }).then(
      ({ done }) => done,
      async (error: unknown) => [`mine failed: ${(error as Error).message}`],
    );
    // Deferred BEGIN: the other writer committed during the pause and this insert failed with
    // "database is locked". Immediate: the other writer waited for this commit.
    const messages = await outcome;
    expect(messages).toEqual(['ready', 'written']);
    const rows = await sql<{ name: string }>`select name from settings_probe`.execute(storage.db);
    expect(rows.rows.map((r) => r.name)).toEqual(['mine', 'other']);
  });
});

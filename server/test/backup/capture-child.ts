// A capture in its own process, for the crash-safety test: opens the storage named in
// STORE_TEST_LOCATION, says "ready", and captures the tree until the parent kills it. The read is
// throttled (30 000 entries at 50 000 a second take ~0.6 s) so the parent's random kill lands
// inside the capture: unthrottled, a COPY capture of this tree ends before any kill can.
import { join } from 'node:path';
import { DirectoryArtifactStore } from '../../src/engines/backup/artifacts/index.js';
import { CaptureService } from '../../src/engines/backup/capture/capture-service.js';
import { openStorage } from '../../src/storage/database.js';
import type { TestStorageLocation } from '../support/test-storage.js';

const location = JSON.parse(process.env.STORE_TEST_LOCATION ?? '{}') as TestStorageLocation;
const storage = await openStorage(location);
const captures = new CaptureService(
  storage,
  new DirectoryArtifactStore(join(location.dataDir, 'artifacts')),
  Date.now,
);
process.stdout.write('ready\n');
await captures.capture(
  {
    tenant: 'acme',
    // No operation row carries this id: once the process is gone, its claim is dead.
    operationId: `crash-child-${process.pid}`,
    createdBy: 'crash-test',
    signal: new AbortController().signal,
    progress: () => undefined,
  },
  {
    name: 'doomed',
    scope: { treeId: 'big' },
    pageSize: 100,
    labels: {},
    maxEntriesPerSecond: 50_000,
  },
  false,
);
process.stdout.write('done\n');
await storage.close();

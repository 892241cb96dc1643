import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isStoreError } from '../../errors.js';
import { ensureDirectory, mapWriteError } from './durable-fs.js';

describe('mapWriteError', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'durable-fs-'));
  });
  afterEach(async () => {
    await chmod(root, 0o700).catch(() => undefined);
    await rm(root, { recursive: true, force: true });
  });

  async function folderError(dir: string): Promise<unknown> {
    return ensureDirectory(dir).then(
      () => undefined,
      (error: unknown) => mapWriteError(error),
    );
  }

  it('says in words that a file stands where the artifact folder should be (FailedPrecondition)', async () => {
    await writeFile(join(root, 'tenant'), 'not a folder');
    for (const dir of [join(root, 'tenant'), join(root, 'tenant', 'backup')]) {
      const error = await folderError(dir);
      expect(isStoreError(error) && error.code).toBe('failed_precondition');
      expect((error as Error).message).toBe(
        'the artifact store cannot make its folder: a file stands where a folder should be',
      );
      expect((error as Error).message).not.toContain(root);
    }
  });

  it.skipIf(process.getuid?.() === 0)(
    'says a folder it may not write is a permission to fix (FailedPrecondition)',
    async () => {
      await chmod(root, 0o500);
      const error = await folderError(join(root, 'backup'));
      expect(isStoreError(error) && error.code).toBe('failed_precondition');
      expect((error as Error).message).toContain('permission denied');
    },
  );

  it('leaves a fault it cannot explain as it is, for the log and Internal', () => {
    const odd = Object.assign(new Error('io'), { code: 'EIO' });
    expect(mapWriteError(odd)).toBe(odd);
  });
});

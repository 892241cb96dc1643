import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const protoDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const baseline = join(protoDir, 'baseline', 'contract-9.9.0.binpb');
const buf = join(protoDir, '..', 'node_modules', '.bin', 'buf');

let scratch: string | undefined;
afterEach(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

/** Copies the contract, applies an edit to one file, and runs buf breaking against the baseline. */
function breakingAfter(file: string, edit: (text: string) => string): string | null {
  scratch = mkdtempSync(join(tmpdir(), 'store-breaking-'));
  for (const entry of ['buf.yaml', 'store', 'grpc']) {
    cpSync(join(protoDir, entry), join(scratch, entry), { recursive: true });
  }
  const path = join(scratch, file);
  writeFileSync(path, edit(readFileSync(path, 'utf8')));
  try {
    execFileSync(buf, ['breaking', scratch, '--exclude-imports', '--against', baseline], {
      stdio: 'pipe',
    });
    return null;
  } catch (error) {
    return String((error as { stdout?: Buffer }).stdout ?? error);
  }
}

describe('buf breaking against the committed baseline', () => {
  it('accepts the contract as it is and an additive change', () => {
    expect(breakingAfter('store/backup/v1/backup_messages.proto', (t) => t)).toBeNull();
    const added = breakingAfter('store/backup/v1/backup_messages.proto', (t) =>
      t.replace('bool cascade = 2;', 'bool cascade = 2;\n  bool dry_run = 3;'),
    );
    expect(added).toBeNull();
  }, 60_000);

  it('when a field is renumbered, the check fails', () => {
    const report = breakingAfter('store/backup/v1/backup_messages.proto', (t) =>
      t.replace(
        'string backup_id = 1;\n  // Additive (DESIGN.md §3)',
        'string backup_id = 9;\n  // Additive (DESIGN.md §3)',
      ),
    );
    expect(report).toMatch(/BackupDeleteRequest|backup_id/);
  }, 60_000);

  it('when an RPC is removed or an operation enum value renumbered, the check fails', () => {
    expect(
      breakingAfter('store/schema/v1/schema_service.proto', (t) =>
        t.replace(
          / {2}rpc CountDeadLetters\(SchemaTreeRequest\) returns \(SchemaCountResponse\);\n/,
          '',
        ),
      ),
    ).toMatch(/CountDeadLetters/);
    expect(
      breakingAfter('store/api/v1/api_operations.proto', (t) =>
        t.replace(
          'STORE_BACKUP_API_OPERATION_START_BACKUP = 18;',
          'STORE_BACKUP_API_OPERATION_START_BACKUP = 29;',
        ),
      ),
    ).toMatch(/START_BACKUP|18/);
  }, 60_000);
});

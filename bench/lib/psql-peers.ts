// The peers a PostgreSQL admin would use instead of the product, run as real processes
// (/usr/bin/psql, gzip, sha256sum) in a shell pipeline against the bench's own schema:
//   capture: psql \copy (select …) to stdout | gzip -6 | sha256sum
//   restore: psql \copy (select …) to stdout | psql \copy entries … from stdin
// The restore peer loads into the entries table itself (primary key and sequence index), the
// table a restore writes to.
import { spawn } from 'node:child_process';
import type { TestStorageLocation } from '../../server/test/support/test-storage.js';

const PSQL = '/usr/bin/psql';

/** Runs `script` in bash with pipefail; resolves with its stdout, rejects on a non-zero exit. */
function pipeline(script: string, location: TestStorageLocation): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-o', 'pipefail', '-c', script], {
      env: {
        ...process.env,
        PGOPTIONS: `-c search_path=${location.postgresSchema ?? 'public'}`,
        PSQL_URL: location.databaseUrl ?? '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`peer pipeline exited ${code}: ${err}`)),
    );
  });
}

const psql = (command: string) =>
  `${PSQL} "$PSQL_URL" -X -q -v ON_ERROR_STOP=1 -c ${shellQuote(command)}`;

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function sqlLiteral(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** `psql \copy (select the tree's live entries in key order) to stdout | gzip -6 | sha256sum`. */
export async function psqlCapturePeer(
  location: TestStorageLocation,
  physicalTreeId: string,
): Promise<string> {
  const select =
    'select key, value_json, sequence, schema_version from entries ' +
    `where physical_tree_id = ${sqlLiteral(physicalTreeId)} and tombstone = 0 order by key`;
  const out = await pipeline(
    `${psql(`\\copy (${select}) to stdout`)} | gzip -6 | sha256sum`,
    location,
  );
  return out.split(' ')[0] ?? '';
}

/** `psql \copy` the tree's rows out, piped into `psql \copy entries from stdin` under `into`. */
export async function psqlRestorePeer(
  location: TestStorageLocation,
  fromPhysicalTreeId: string,
  intoPhysicalTreeId: string,
): Promise<void> {
  const columns =
    'physical_tree_id, key, value_json, tombstone, sequence, schema_version, updated_at';
  const select =
    `select ${sqlLiteral(intoPhysicalTreeId)}, key, value_json, tombstone, sequence, ` +
    `schema_version, updated_at from entries where physical_tree_id = ${sqlLiteral(fromPhysicalTreeId)}`;
  await pipeline(
    `${psql(`\\copy (${select}) to stdout`)} | ${psql(`\\copy entries (${columns}) from stdin`)}`,
    location,
  );
}

// The server's tests run against PostgreSQL as well as SQLite. Start the local cluster when it is
// down (Debian's pg_ctlcluster; CI runs as root on a machine that has it installed).
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const ready = () =>
  spawnSync('pg_isready', ['-h', '127.0.0.1', '-p', '5432'], { stdio: 'ignore' }).status === 0;

if (process.env.TEST_DATABASE_URL) {
  console.log('PostgreSQL: using TEST_DATABASE_URL');
} else if (ready()) {
  console.log('PostgreSQL is running on 127.0.0.1:5432');
} else {
  const versions = readdirSync('/etc/postgresql');
  if (versions.length === 0)
    throw new Error('PostgreSQL is not installed (/etc/postgresql is empty)');
  const version = versions.sort().at(-1);
  console.log(`Starting PostgreSQL ${version} ...`);
  execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], {
    stdio: 'inherit',
  });
  const deadline = Date.now() + 30_000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error('PostgreSQL did not become ready within 30 s');
    spawnSync('sleep', ['0.5']);
  }
  console.log('PostgreSQL is running on 127.0.0.1:5432');
}

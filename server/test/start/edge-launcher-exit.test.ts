// The edge topology dies with its launcher. Envoy, the S3 server and the replicas each run in a
// process group of their own (so a terminal's Ctrl-C reaches them once, through the launcher), so
// a launcher killed hard (SIGKILL of `npm run edge` or of its group) used to leave them all
// running, holding their ports. The replicas watch their IPC channel, Envoy and the S3 server a
// pipe from the launcher (scripts/edge/watchdog.ts).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_DATABASE_URL } from '../support/test-storage.js';

const CHILD = fileURLToPath(new URL('./edge-launcher-child.ts', import.meta.url));
const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** Live (not zombie) processes whose process group is one of `groups`. */
function membersOf(groups: Set<number>): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // pid (comm) state ppid pgrp …; comm may hold spaces, so split after the last ')'.
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state !== 'Z' && groups.has(Number(pgrp))) found.push(`${pid} ${stat.slice(0, 60)}`);
    } catch {
      // Gone while reading.
    }
  }
  return found;
}

describe('the edge topology ends with its launcher', () => {
  const workDir = mkdtempSync(join(tmpdir(), 'store-edge-launcher-'));
  const pgSchema = `edge_exit_${randomBytes(4).toString('hex')}`;
  let groups = new Set<number>();
  afterAll(async () => {
    for (const pgid of groups) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // Ended, as it should.
      }
    }
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    await client.query(`drop schema if exists ${pgSchema} cascade`).finally(() => client.end());
    rmSync(workDir, { recursive: true, force: true });
  });

  it('SIGKILL of the launcher: the replicas, Envoy and the S3 server all end within seconds', async () => {
    const launcher = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      cwd: SERVER_DIR,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        EDGE_TEST_OPTIONS: JSON.stringify({ workDir, databaseUrl: TEST_DATABASE_URL, pgSchema }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let printed = '';
    launcher.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    launcher.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const started = await new Promise<{ url: string; groups: { name: string; pgid: number }[] }>(
      (resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no edge in 150 s:\n${printed}`)), 150_000);
        launcher.stdout.on('data', () => {
          const line = /^EDGE (.*)$/m.exec(printed);
          if (!line) return;
          clearTimeout(timer);
          resolve(
            JSON.parse(line[1]!) as { url: string; groups: { name: string; pgid: number }[] },
          );
        });
        launcher.once('exit', () => reject(new Error(`the launcher exited:\n${printed}`)));
      },
    );
    groups = new Set(started.groups.map((group) => group.pgid));
    expect(started.groups.map((group) => group.name).sort()).toEqual([
      'envoy',
      's3',
      'server-1',
      'server-2',
    ]);
    // Envoy and rclone run below their watchdog shells, in the same groups.
    expect(membersOf(groups).length).toBeGreaterThanOrEqual(6);
    // It serves before it is killed: /healthz through Envoy, since a clean clone has no built
    // console (Envoy may answer 503 until a replica passes its first health check).
    const health = new URL('/healthz', started.url);
    const servedBy = Date.now() + 30_000;
    let served = false;
    while (!served && Date.now() < servedBy) {
      served = await fetch(health).then(
        (response) => response.ok,
        () => false,
      );
      if (!served) await new Promise((r) => setTimeout(r, 250));
    }
    expect(served, 'the edge answered /healthz before the kill').toBe(true);

    launcher.kill('SIGKILL');
    const killedAt = Date.now();
    let left = membersOf(groups);
    while (left.length > 0 && Date.now() - killedAt < 20_000) {
      await new Promise((r) => setTimeout(r, 200));
      left = membersOf(groups);
    }
    expect(left, 'still running after the launcher was killed').toEqual([]);
    expect(Date.now() - killedAt).toBeLessThan(15_000);
    await expect(fetch(started.url)).rejects.toThrow();
  });
});

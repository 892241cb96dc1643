// The bench's server in a child process (bench/lib/server-child.ts), for figures that must be the
// server's own: its resident set (read from /proc by this process) and its event-loop delay
// (measured in the child). The bench keeps a storage handle of its own on the same database for
// what is not measured (seeding, scratch trees, counts).
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { SERVER_NODE_FLAGS } from '../../server/node-flags.mjs';
import { openStorage, type Dialect, type Storage } from '../../server/src/storage/database.js';
import {
  newStorageLocation,
  removeStorageLocation,
  type TestStorageLocation,
} from '../../server/test/support/test-storage.js';
import { bundleServerChild } from './bundle-server-child.js';
import { BENCH_SERVER_ENV, benchClients, type BenchClients } from './bench-server.js';
import type { ChildCommand, ChildReply, InsidePhase } from './server-child-protocol.js';

/** The child's resident set from /proc/<pid>/status, in MB. */
export interface ProcessMemory {
  rssMb: number;
  /** VmHWM: the peak resident set since the last reset (see resetPeak). */
  hwmMb: number;
  anonMb: number;
  /** File pages mapped by the process (code, and SQLite's file if it were memory-mapped). */
  fileMb: number;
  shmemMb: number;
}

type Command = ChildCommand extends infer C
  ? C extends ChildCommand
    ? Omit<C, 'id'>
    : never
  : never;

export interface ChildBenchServer extends BenchClients {
  dialect: Dialect;
  pid: number;
  location: TestStorageLocation;
  grpcUrl: string;
  httpUrl: string;
  /** The bench's own storage handle on the server's database (not the server's). */
  storage: Storage;
  call<T>(command: Command): Promise<T>;
  memory(): ProcessMemory;
  /** Sets the child's VmHWM to its current resident set (Linux clear_refs 5). */
  resetPeak(): void;
  startPhase(): Promise<void>;
  endPhase(): Promise<InsidePhase>;
  dispose(): Promise<void>;
}

const MB = 1024;

export async function forkBenchServer(
  dialect: Dialect,
  env: Record<string, string> = {},
): Promise<ChildBenchServer> {
  const entry = await bundleServerChild();
  const location = newStorageLocation(dialect);
  // As scripts/start.mjs runs the server (its flags, server/node-flags.mjs): not the bench's
  // --max-old-space-size or tsx (fork would pass the bench's own flags on). --expose-gc only
  // lets the child read its live heap after each phase (server-child.ts); nothing collects
  // during a phase.
  const child: ChildProcess = fork(entry, {
    execArgv: [...SERVER_NODE_FLAGS, '--expose-gc'],
    env: {
      ...process.env,
      BENCH_SERVER_LOCATION: JSON.stringify(location),
      BENCH_SERVER_ENV: JSON.stringify({ ...BENCH_SERVER_ENV, ...env }),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  const exited = once(child, 'exit');
  child.on('message', (reply: ChildReply) => {
    if (reply.type !== 'reply') return;
    const waiting = pending.get(reply.id);
    pending.delete(reply.id);
    if (reply.ok) waiting?.resolve(reply.value);
    else waiting?.reject(new Error(`server child: ${reply.error}`));
  });
  child.on('exit', (code) => {
    for (const w of pending.values()) w.reject(new Error(`server child exited (${code})`));
    pending.clear();
  });
  const ready = await Promise.race([
    once(child, 'message') as Promise<[ChildReply]>,
    exited.then(([code]) => {
      throw new Error(`server child exited (${String(code)}) before it was ready`);
    }),
  ]);
  const [hello] = ready;
  if (hello.type !== 'ready') throw new Error('server child: no ready message');
  const pid = child.pid;
  if (pid === undefined) throw new Error('server child has no pid');
  // Opened after the child migrated the database, so this handle only finds it current.
  const storage = await openStorage(location);

  const call = <T>(command: Command): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.send({ ...command, id } as ChildCommand);
    });
  const memory = (): ProcessMemory => {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) =>
      Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
    return {
      rssMb: kb('VmRSS') / MB,
      hwmMb: kb('VmHWM') / MB,
      anonMb: kb('RssAnon') / MB,
      fileMb: kb('RssFile') / MB,
      shmemMb: kb('RssShmem') / MB,
    };
  };
  return {
    dialect,
    pid,
    location,
    grpcUrl: hello.grpcUrl,
    httpUrl: hello.httpUrl,
    storage,
    ...benchClients(hello.grpcUrl, hello.httpUrl),
    call,
    memory,
    resetPeak: () => writeFileSync(`/proc/${pid}/clear_refs`, '5'),
    startPhase: () => call({ type: 'phase-start' }),
    endPhase: () => call({ type: 'phase-end' }),
    async dispose() {
      await storage.close();
      if (child.exitCode === null) {
        await call({ type: 'stop' }).catch(() => undefined);
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      await removeStorageLocation(location);
    },
  };
}

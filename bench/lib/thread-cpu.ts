// CPU time of this process's main thread (the server's event loop in the bench), from Linux's
// scheduler counters: the figure that bounds a one-loop server whatever the other core does.
import { readFileSync } from 'node:fs';

/** Nanoseconds the main thread has run so far, or null where /proc has no schedstat. */
export function mainThreadCpuNs(): bigint | null {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ');
    return BigInt(fields[0] ?? '');
  } catch {
    return null;
  }
}

/** Runs `work` and returns its result with the main thread's CPU time over it, in µs. */
export async function withMainThreadCpu<T>(
  work: () => Promise<T>,
): Promise<{ result: T; cpuUs: number | null }> {
  const before = mainThreadCpuNs();
  const result = await work();
  const after = mainThreadCpuNs();
  return {
    result,
    cpuUs: before === null || after === null ? null : Number(after - before) / 1000,
  };
}

/**
 * The policy schemas of the security review's denial-of-service findings (docs/security.md,
 * "Validation budget"), and a bystander that measures how another tenant is answered meanwhile.
 */

/** Each `$defs` entry allOf-s two references to the previous one: 2^levels subschemas of work. */
export function referenceBomb(levels: number): string {
  const defs: Record<string, unknown> = { d0: { type: 'integer' } };
  for (let i = 1; i <= levels; i++) {
    const previous = { $ref: `#/$defs/d${i - 1}` };
    defs[`d${i}`] = { allOf: [previous, previous] };
  }
  return JSON.stringify({ $defs: defs, $ref: `#/$defs/d${levels}` });
}

/** `branches` allOf branches over the items of an array (12 000 of them are about 216 KB). */
export function branchDraft(branches: number): string {
  return JSON.stringify({
    type: 'array',
    items: { allOf: Array.from({ length: branches }, (_, i) => ({ maximum: i })) },
  });
}

/**
 * Small and inside every static limit, yet slow per value: each string item is matched against
 * 600 patterns, so an array of 20 000 strings is 12 million matches (about 3.5 s on an idle core,
 * well over the default 1 s budget; it compiles in under one).
 */
export const SLOW_PER_ITEM = JSON.stringify({
  type: 'array',
  items: { allOf: Array.from({ length: 600 }, (_, i) => ({ not: { pattern: `^x${i}$` } })) },
});

/** An array of `count` distinct short strings. */
export function manyStrings(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `v${i}`);
}

export interface BystanderReport<T> {
  result: T;
  /** Calls the bystander completed while the attack ran. */
  calls: number;
  p99Ms: number;
  /** Highest resident set size of this process (the server runs in it) seen meanwhile. */
  maxRssBytes: number;
}

/**
 * Runs `attack` while a bystander makes `call` over and over (20 ms apart), and reports the
 * bystander's latencies and this process's peak RSS. The server runs in this process, so a
 * blocked event loop shows up as the bystander's latency.
 */
export async function withBystander<T>(
  call: () => Promise<unknown>,
  attack: () => Promise<T>,
): Promise<BystanderReport<T>> {
  const latencies: number[] = [];
  let maxRssBytes = process.memoryUsage().rss;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await call();
      latencies.push(performance.now() - started);
      maxRssBytes = Math.max(maxRssBytes, process.memoryUsage().rss);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  let result: T;
  try {
    result = await attack();
  } finally {
    running = false;
    await loop;
  }
  latencies.sort((a, b) => a - b);
  const p99Ms = latencies[Math.max(0, Math.ceil(latencies.length * 0.99) - 1)] ?? 0;
  return { result, calls: latencies.length, p99Ms, maxRssBytes };
}

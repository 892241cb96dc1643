import { setImmediate } from 'node:timers/promises';

/**
 * better-sqlite3 answers synchronously, so a loop over pages that does only database work runs
 * on microtasks and starves every other call on the process until it ends. The returned function
 * yields to the event loop once `budgetMs` of work has passed since the last yield; call it once
 * per page.
 */
export function createEventLoopYielder(budgetMs = 10): () => Promise<void> {
  let lastYield = performance.now();
  return async () => {
    if (performance.now() - lastYield < budgetMs) return;
    await setImmediate();
    lastYield = performance.now();
  };
}

import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as Esbuild from 'esbuild';
import { Piscina } from 'piscina';
import { StoreError } from '../../errors.js';
import {
  DEFAULT_VIOLATION_LIMIT,
  type KeywordViolation,
  type ValueVerdict as CoreVerdict,
} from '../core/index.js';
import {
  PROGRESS_COMPILING,
  PROGRESS_WAITING,
  VERDICT_PASSED,
  type ValidationDetail,
  type ValidationReply,
  type ValidationTask,
} from './validation-task.js';
import { TenantSlots } from './tenant-slots.js';

/** The validation budget (docs/security.md, "Validation budget"). */
export interface ValidationBudget {
  /** Worker threads that compile and validate (STORE_VALIDATION_THREADS). */
  threads: number;
  /**
   * Longest one value may take (STORE_VALIDATION_TIME_BUDGET_MS); compiling a schema may take
   * COMPILE_BUDGET_FACTOR times as long (Ajv needs about 2 s for the largest schema allowed).
   */
  timeBudgetMs: number;
  /** Heap a worker may use (STORE_VALIDATION_MEMORY_MB). */
  memoryBudgetMb: number;
}

export const DEFAULT_VALIDATION_BUDGET: ValidationBudget = {
  threads: 2,
  timeBudgetMs: 1_000,
  memoryBudgetMb: 256,
};

/** How many per-value budgets compiling one schema may take. */
export const COMPILE_BUDGET_FACTOR = 5;

/** One value's verdict; failing values carry their violations with the keyword at fault. */
export type ValueVerdict =
  | { readonly kind: 'pass' }
  | { readonly kind: 'fail'; readonly violations: readonly KeywordViolation[] }
  | Extract<CoreVerdict, { kind: 'over_budget' }>;

/** What a caller asks of validateMany. */
export interface ValidationRequest {
  readonly tenant: string;
  readonly jsonSchema: string;
  /** 'verdict': pass or fail only; 'violations': failing values carry their first `limit`. */
  readonly detail?: ValidationDetail;
  readonly limit?: number;
}

/** Reason text of a value over budget; callers and reports show it as is. */
export const OVER_BUDGET = 'over the validation budget';

type Outcome = { reply: ValidationReply } | { cutAt: number; reason: string };

/**
 * Compiles policy schemas and judges values in worker threads (piscina), one round trip per
 * batch, so no schema or value can hold the event loop. Each value, and each compilation, gets
 * the time budget; a call over it, or over the memory budget, loses its worker, the value in
 * progress is over budget, and the rest of the batch is judged again on a fresh worker. Values
 * found over budget are remembered (by object, weakly) so a retry of the same write answers at
 * once. Threads are shared fairly between tenants (TenantSlots).
 */
export class ValidationPool {
  readonly budget: ValidationBudget;
  readonly #slots: TenantSlots;
  #piscina: Promise<Piscina> | undefined;
  #started: Piscina | undefined;
  #closed = false;
  readonly #overBudget = new WeakMap<object, Map<string, string>>();

  constructor(budget: Partial<ValidationBudget> = {}) {
    this.budget = { ...DEFAULT_VALIDATION_BUDGET, ...budget };
    this.#slots = new TenantSlots(this.budget.threads);
  }

  /**
   * Compiles a schema in a worker: InvalidArgument naming `field` and the limit when it is
   * refused, or when compiling it is over the budget.
   */
  async compile(
    tenant: string,
    jsonSchema: string,
    field: string,
  ): Promise<{ schemaHash: string }> {
    const outcome = await this.#call(tenant, { jsonSchema, field, values: [] });
    // A schema that cannot compile within the budget could never judge a value: refused.
    if ('cutAt' in outcome)
      throw new StoreError('invalid_argument', `${field}: ${outcome.reason}`, field);
    const { reply } = outcome;
    if (reply.kind === 'refused')
      throw new StoreError('invalid_argument', reply.message, reply.field);
    return { schemaHash: reply.schemaHash };
  }

  /**
   * Judges every value against the schema, one verdict per value, in order; a schema that does
   * not compile (a policy stored before the limits) is FailedPrecondition.
   */
  async validateMany(
    request: ValidationRequest,
    values: readonly unknown[],
  ): Promise<ValueVerdict[]> {
    const verdicts: Array<ValueVerdict | undefined> = values.map((value) => {
      const reason = this.#remembered(value, request.jsonSchema);
      return reason === undefined ? undefined : { kind: 'over_budget', reason };
    });
    let pending = values.flatMap((_, index) => (verdicts[index] ? [] : [index]));
    while (pending.length > 0) {
      const progress = new SharedArrayBuffer(4 * (1 + pending.length));
      const outcome = await this.#call(
        request.tenant,
        {
          jsonSchema: request.jsonSchema,
          field: 'policy.json_schema',
          values: pending.map((index) => values[index]),
          detail: request.detail ?? 'violations',
          limit: request.limit ?? DEFAULT_VIOLATION_LIMIT,
        },
        progress,
      );
      if ('reply' in outcome) {
        const { reply } = outcome;
        // A stored policy set before today's limits may be refused now: the tree needs a new one.
        if (reply.kind === 'refused') {
          throw new StoreError(
            'failed_precondition',
            `the tree's policy cannot be used: ${reply.message}; set a policy within the limits`,
          );
        }
        pending.forEach((index, at) => {
          const violations = reply.verdicts[at]?.violations;
          verdicts[index] = violations ? { kind: 'fail', violations } : { kind: 'pass' };
        });
        break;
      }
      // Cut short: the value in progress is over budget; values that passed before it keep their
      // verdict; the others (failed ones need their messages) go again on a fresh worker.
      if (outcome.cutAt < 0) {
        for (const index of pending)
          verdicts[index] = { kind: 'over_budget', reason: outcome.reason };
        break;
      }
      const cells = new Int32Array(progress);
      const again: number[] = [];
      pending.forEach((index, at) => {
        if (at === outcome.cutAt) {
          verdicts[index] = { kind: 'over_budget', reason: outcome.reason };
          this.#remember(values[index], request.jsonSchema, outcome.reason);
        } else if (at < outcome.cutAt && Atomics.load(cells, 1 + at) === VERDICT_PASSED) {
          verdicts[index] = { kind: 'pass' };
        } else {
          again.push(index);
        }
      });
      pending = again;
    }
    return verdicts.map((verdict) => verdict ?? { kind: 'over_budget', reason: OVER_BUDGET });
  }

  /**
   * Starts the threads now, in the background (server start-up): the first policy check then
   * does not wait for them, nor take the event loop from other callers while they boot.
   */
  async warm(): Promise<void> {
    if (this.#closed) return;
    await this.#pool().catch(() => undefined);
  }

  /** Threads running now (0 before the first check or warm start). */
  get threadCount(): number {
    return this.#started?.threads.length ?? 0;
  }

  /** Ends the worker threads (server stop); calls in flight fail. */
  async close(): Promise<void> {
    this.#closed = true;
    const piscina = this.#piscina;
    this.#piscina = undefined;
    this.#started = undefined;
    await (await piscina?.catch(() => undefined))?.destroy();
  }

  async #call(
    tenant: string,
    task: Omit<ValidationTask, 'progress' | 'detail' | 'limit'> & Partial<ValidationTask>,
    progress = new SharedArrayBuffer(4),
  ): Promise<Outcome> {
    const release = await this.#slots.acquire(tenant);
    const cells = new Int32Array(progress);
    Atomics.store(cells, 0, PROGRESS_WAITING);
    const abort = new AbortController();
    const watchdog = this.#watch(cells, abort);
    try {
      const pool = await this.#pool();
      const reply = (await pool.run(
        { detail: 'verdict', limit: DEFAULT_VIOLATION_LIMIT, ...task, progress },
        { signal: abort.signal },
      )) as ValidationReply;
      return { reply };
    } catch (error) {
      const at = Atomics.load(cells, 0);
      if (abort.signal.aborted) {
        const what = at === PROGRESS_COMPILING ? 'compiling the schema' : 'judging one value';
        return {
          cutAt: at,
          reason: `${OVER_BUDGET}: ${what} took longer than ${this.#allowance(at)} ms`,
        };
      }
      if (isOutOfMemory(error)) {
        const what = at === PROGRESS_COMPILING ? 'compiling the schema' : 'judging one value';
        return {
          cutAt: at,
          reason: `${OVER_BUDGET}: ${what} needed more than ${this.budget.memoryBudgetMb} MiB`,
        };
      }
      throw error;
    } finally {
      clearInterval(watchdog);
      release();
    }
  }

  // Time counts from when the worker starts on the task (not while it waits or boots), and
  // restarts at each value: every value, and the compilation, gets the whole budget.
  #watch(cells: Int32Array, abort: AbortController): NodeJS.Timeout {
    let seen = PROGRESS_WAITING;
    let since = Date.now();
    const tick = Math.max(10, Math.floor(this.budget.timeBudgetMs / 4));
    return setInterval(() => {
      const now = Atomics.load(cells, 0);
      if (now !== seen) {
        seen = now;
        since = Date.now();
      } else if (now !== PROGRESS_WAITING && Date.now() - since >= this.#allowance(now)) {
        abort.abort(new Error(OVER_BUDGET));
      }
    }, tick);
  }

  #allowance(progress: number): number {
    const budget = this.budget.timeBudgetMs;
    return progress === PROGRESS_COMPILING ? budget * COMPILE_BUDGET_FACTOR : budget;
  }

  #pool(): Promise<Piscina> {
    if (this.#closed) throw new StoreError('unavailable', 'the server is stopping');
    const started = (this.#piscina ??= this.#startPool().catch((error: unknown) => {
      this.#piscina = undefined;
      throw error;
    }));
    return started;
  }

  async #startPool(): Promise<Piscina> {
    const piscina = new Piscina({
      filename: await workerFile(),
      // One thread more than ever run at once, all started up front: when a call over budget
      // terminates its worker, the replacement boots while the spare serves the next call, so
      // another tenant never waits for a worker to start.
      minThreads: this.budget.threads + 1,
      maxThreads: this.budget.threads + 1,
      resourceLimits: {
        maxOldGenerationSizeMb: this.budget.memoryBudgetMb,
        maxYoungGenerationSizeMb: Math.max(8, Math.floor(this.budget.memoryBudgetMb / 8)),
      },
    });
    // A worker that dies between tasks is replaced on the next call; nothing to report to.
    piscina.on('error', () => undefined);
    this.#started = piscina;
    return piscina;
  }

  #remembered(value: unknown, jsonSchema: string): string | undefined {
    return typeof value === 'object' && value !== null
      ? this.#overBudget.get(value)?.get(jsonSchema)
      : undefined;
  }

  #remember(value: unknown, jsonSchema: string, reason: string): void {
    if (typeof value !== 'object' || value === null) return;
    const bySchema = this.#overBudget.get(value) ?? new Map<string, string>();
    bySchema.set(jsonSchema, reason);
    this.#overBudget.set(value, bySchema);
  }
}

/** ResourceExhausted for a write or check whose value is over the validation budget. */
export function overBudgetError(reason: string): StoreError {
  return new StoreError(
    'resource_exhausted',
    `${reason} (STORE_VALIDATION_TIME_BUDGET_MS / STORE_VALIDATION_MEMORY_MB); the value was not ` +
      "stored: simplify the value or the tree's policy",
  );
}

function isOutOfMemory(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
}

// The temporary directory is shared by every user of the machine: the worker is code this process
// will run, so it lives in a directory only this user can write, checked rather than trusted.
function privateCacheDir(): string {
  const uid = process.getuid?.() ?? 0;
  const dir = join(tmpdir(), `store-validation-${uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o022) !== 0) {
    throw new Error(`${dir} is not a private directory of this user; remove it`);
  }
  return dir;
}

// The bundle (scripts/build.mjs) puts validation-worker.js beside main.js. From source (tsx,
// vitest) worker threads do not inherit the TypeScript loader, and registering tsx in each new
// thread took about a second on a loaded machine, paid again whenever a worker over budget is
// replaced; so the worker is bundled once per process with esbuild (a dev dependency, present
// wherever the sources run) into a temporary file, and starts in a fifth of that. The build runs
// in esbuild's own process (its async API): buildSync held the event loop for about 200 ms.
let bundledFromSource: Promise<string> | undefined;
function workerFile(): Promise<string> {
  const bundled = new URL('./validation-worker.js', import.meta.url);
  if (existsSync(bundled)) return Promise.resolve(bundled.href);
  // A failed build is not kept: the next call tries again.
  bundledFromSource ??= bundleFromSource().catch((error: unknown) => {
    bundledFromSource = undefined;
    throw error;
  });
  return bundledFromSource;
}

async function bundleFromSource(): Promise<string> {
  const esbuild = createRequire(import.meta.url)('esbuild') as typeof Esbuild;
  const [output] = (
    await esbuild.build({
      entryPoints: [fileURLToPath(new URL('./validation-worker.ts', import.meta.url))],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      write: false,
      logLevel: 'warning',
    })
  ).outputFiles;
  if (!output) throw new Error('esbuild wrote no validation worker');
  // Named by its content: every process running the same sources shares one file, so nothing
  // accumulates; written under a temporary name and renamed, so no process reads half a file.
  const hash = createHash('sha256').update(output.contents).digest('hex').slice(0, 16);
  const file = join(privateCacheDir(), `validation-worker-${hash}.mjs`);
  if (!existsSync(file)) {
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, output.contents);
    renameSync(partial, file);
  }
  return pathToFileURL(file).href;
}

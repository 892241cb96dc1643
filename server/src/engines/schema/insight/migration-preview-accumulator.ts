import { canonicalJson } from '../../data/canonical-json.js';
import { formatViolation, type MigrationStep, type ValueVerdict } from '../core/index.js';
import type { EntryDecision } from '../tree-rewrite.js';
import type { FailingSample } from './dry-run-accumulator.js';

/** Before/after samples kept per step, and failures kept, unless the caller asks otherwise. */
export const DEFAULT_PREVIEW_SAMPLES = 20;
export const MAX_PREVIEW_SAMPLES = 100;
/**
 * Sampled values are stored in the operation's result: a sample whose two sides together pass
 * this is counted but not kept, and the samples of one preview stop at the total budget.
 */
const MAX_SAMPLE_BYTES = 64 * 1024;
const SAMPLE_BUDGET_BYTES = 2 * 1024 * 1024;

/** One entry's value before and after a step, as canonical JSON text. */
export interface PreviewSample {
  key: string;
  beforeJson: string;
  afterJson: string;
}

/** An entry the migration would dead-letter; versions are 0 when no step is to blame. */
export interface PreviewFailure {
  key: string;
  reason: 'MIGRATION_FAILED' | 'TRANSFORM_FAILED';
  message: string;
  fromVersion: number;
  toVersion: number;
}

export interface PreviewStep {
  fromVersion: number;
  toVersion: number;
  entered: number;
  changed: number;
  failed: number;
  samples: PreviewSample[];
}

export interface MigrationPreviewTally {
  scanned: number;
  wouldChange: number;
  unchanged: number;
  wouldDeadLetter: number;
  /** In chain order (by from version). */
  steps: PreviewStep[];
  failures: PreviewFailure[];
  policyRefused: number;
  policySamples: FailingSample[];
}

/** A step one entry went through, with its value on either side. */
export interface StepTrace {
  step: MigrationStep;
  before: unknown;
  after: unknown;
}

/**
 * Tallies what a migration would do, entry by entry, from the same decision the run makes
 * (schema-runs.decideMigration) and the steps each value went through. Memory is bounded by the
 * sample limit and byte budget, not by the tree.
 */
export class MigrationPreviewAccumulator {
  #scanned = 0;
  #wouldChange = 0;
  #unchanged = 0;
  #wouldDeadLetter = 0;
  #policyRefused = 0;
  #sampleBytes = 0;
  readonly #steps = new Map<string, PreviewStep>();
  readonly #failures: PreviewFailure[] = [];
  readonly #policySamples: FailingSample[] = [];

  constructor(
    plannedSteps: readonly MigrationStep[],
    private readonly sampleLimit: number,
  ) {
    // The planned chain is listed even where no entry goes through a step.
    for (const step of plannedSteps) this.#stepOf(step);
  }

  /**
   * One live entry: the run's decision for it, the steps its value went through, and the policy
   * in force's verdict on the migrated value (undefined: no policy, or nothing written).
   */
  add(
    key: string,
    decision: EntryDecision,
    trace: readonly StepTrace[],
    policyVerdict?: ValueVerdict,
  ): void {
    this.#scanned += 1;
    for (const { step, before, after } of trace) this.#addStep(key, step, before, after);
    if (decision.kind === 'keep') {
      this.#unchanged += 1;
      return;
    }
    if (decision.kind === 'dead_letter') {
      const failed = decision.failedStep;
      const blamed =
        failed?.toVersion === undefined
          ? undefined
          : { fromVersion: failed.fromVersion, toVersion: failed.toVersion };
      this.#fail(key, 'MIGRATION_FAILED', decision.errors.join('; '), blamed);
      return;
    }
    try {
      canonicalJson(decision.value);
    } catch (error) {
      // The run stores the result as canonical JSON and dead-letters what it cannot store.
      const message = `the result is not storable JSON: ${(error as Error).message}`;
      this.#fail(key, 'TRANSFORM_FAILED', message, undefined);
      return;
    }
    this.#wouldChange += 1;
    if (!policyVerdict || policyVerdict.kind === 'pass') return;
    const violations =
      policyVerdict.kind === 'fail'
        ? policyVerdict.violations
        : [{ path: '', message: policyVerdict.reason }];
    this.#policyRefused += 1;
    if (this.#policySamples.length < this.sampleLimit) {
      this.#policySamples.push({ key, reasons: violations.slice(0, 5).map(formatViolation) });
    }
  }

  /** Entries read so far. */
  get scanned(): number {
    return this.#scanned;
  }

  report(): MigrationPreviewTally {
    return {
      scanned: this.#scanned,
      wouldChange: this.#wouldChange,
      unchanged: this.#unchanged,
      wouldDeadLetter: this.#wouldDeadLetter,
      steps: [...this.#steps.values()]
        .sort((a, b) => a.fromVersion - b.fromVersion || a.toVersion - b.toVersion)
        .map((step) => ({ ...step, samples: [...step.samples] })),
      failures: [...this.#failures],
      policyRefused: this.#policyRefused,
      policySamples: [...this.#policySamples],
    };
  }

  #addStep(key: string, step: MigrationStep, before: unknown, after: unknown): void {
    const tally = this.#stepOf(step);
    tally.entered += 1;
    if (step.transform === undefined) return;
    const beforeJson = canonicalOrUndefined(before);
    const afterJson = canonicalOrUndefined(after);
    // A value that cannot be stored is the run's TRANSFORM_FAILED, reported with the failures.
    if (beforeJson === undefined || afterJson === undefined || beforeJson === afterJson) return;
    tally.changed += 1;
    const bytes = beforeJson.length + afterJson.length;
    if (
      tally.samples.length < this.sampleLimit &&
      bytes <= MAX_SAMPLE_BYTES &&
      this.#sampleBytes + bytes <= SAMPLE_BUDGET_BYTES
    ) {
      this.#sampleBytes += bytes;
      tally.samples.push({ key, beforeJson, afterJson });
    }
  }

  #fail(
    key: string,
    reason: PreviewFailure['reason'],
    message: string,
    step: { fromVersion: number; toVersion: number } | undefined,
  ): void {
    this.#wouldDeadLetter += 1;
    if (step) {
      // The entry reached the step its patch fails at (observers see only steps that succeed).
      const tally = this.#stepOf(step);
      tally.entered += 1;
      tally.failed += 1;
    }
    if (this.#failures.length >= this.sampleLimit) return;
    this.#failures.push({
      key,
      reason,
      message,
      fromVersion: step?.fromVersion ?? 0,
      toVersion: step?.toVersion ?? 0,
    });
  }

  #stepOf(step: { fromVersion: number; toVersion: number }): PreviewStep {
    const id = `${step.fromVersion}→${step.toVersion}`;
    let tally = this.#steps.get(id);
    if (!tally) {
      tally = {
        fromVersion: step.fromVersion,
        toVersion: step.toVersion,
        entered: 0,
        changed: 0,
        failed: 0,
        samples: [],
      };
      this.#steps.set(id, tally);
    }
    return tally;
  }
}

function canonicalOrUndefined(value: unknown): string | undefined {
  try {
    return canonicalJson(value);
  } catch {
    return undefined;
  }
}

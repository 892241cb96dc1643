import { formatViolation, type KeywordViolation } from '../core/index.js';

/** Distinct (keyword, path) groups a dry-run keeps; the rest are counted, not listed. */
export const MAX_DRY_RUN_GROUPS = 200;
/** Failing keys sampled unless the caller asks otherwise, and the most it may ask for. */
export const DEFAULT_DRY_RUN_SAMPLES = 20;
export const MAX_DRY_RUN_SAMPLES = 100;
/** Reasons kept per sampled key. */
const REASONS_PER_SAMPLE = 5;

/** The entries failing one keyword at one (index-normalised) instance path. */
export interface FailureGroup {
  keyword: string;
  instancePath: string;
  entryCount: number;
  exampleMessage: string;
}

export interface FailingSample {
  key: string;
  reasons: string[];
}

export interface DryRunTally {
  scanned: number;
  failing: number;
  /** Largest first. */
  groups: FailureGroup[];
  otherFailures: number;
  samples: FailingSample[];
}

/**
 * Tallies a draft policy's verdicts over a tree read page by page: counts, failures grouped by
 * keyword and instance path, and the first failing keys. Memory is bounded by the group and
 * sample limits, not by the tree.
 */
export class DryRunAccumulator {
  #scanned = 0;
  #failing = 0;
  #otherFailures = 0;
  readonly #groups = new Map<string, FailureGroup>();
  readonly #samples: FailingSample[] = [];

  constructor(private readonly sampleLimit = DEFAULT_DRY_RUN_SAMPLES) {}

  /** One entry's violations under the draft (empty when it passes). */
  add(key: string, violations: readonly KeywordViolation[]): void {
    this.#scanned += 1;
    if (violations.length === 0) return;
    this.#failing += 1;
    // An entry counts once per group, however many array items fail the same way.
    const seen = new Set<string>();
    for (const violation of violations) {
      const instancePath = normalisePath(violation.path);
      const id = `${violation.keyword}\u0000${instancePath}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const group = this.#groups.get(id);
      if (group) group.entryCount += 1;
      else if (this.#groups.size < MAX_DRY_RUN_GROUPS) {
        this.#groups.set(id, {
          keyword: violation.keyword,
          instancePath,
          entryCount: 1,
          exampleMessage: violation.message,
        });
      } else this.#otherFailures += 1;
    }
    if (this.#samples.length < this.sampleLimit) {
      this.#samples.push({
        key,
        reasons: violations.slice(0, REASONS_PER_SAMPLE).map(formatViolation),
      });
    }
  }

  /** A stored value that is not JSON: it fails whatever the draft says. */
  addUnparseable(key: string, message: string): void {
    this.add(key, [
      { keyword: 'json', path: '', message: `stored value is not valid JSON: ${message}` },
    ]);
  }

  /** Entries evaluated so far. */
  get scanned(): number {
    return this.#scanned;
  }

  report(): DryRunTally {
    return {
      scanned: this.#scanned,
      failing: this.#failing,
      groups: [...this.#groups.values()].sort(
        (a, b) =>
          b.entryCount - a.entryCount ||
          a.instancePath.localeCompare(b.instancePath) ||
          a.keyword.localeCompare(b.keyword),
      ),
      otherFailures: this.#otherFailures,
      samples: this.#samples.map((sample) => ({ ...sample, reasons: [...sample.reasons] })),
    };
  }
}

// Array indexes become "*", so "/tags/0" and "/tags/7" are one group. (An object member named
// by digits is grouped the same way; a dry-run summarises, the samples keep the exact paths.)
function normalisePath(path: string): string {
  return path
    .split('/')
    .map((token, index) => (index > 0 && /^(0|[1-9]\d*)$/.test(token) ? '*' : token))
    .join('/');
}

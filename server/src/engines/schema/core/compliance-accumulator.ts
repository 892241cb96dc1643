import { DEFAULT_VIOLATION_LIMIT, type PolicyValidator } from './policy-compiler.js';
import type { ValueVerdict, Violation } from './types.js';

/** One violation in a compliance report, with the entry it belongs to. */
export interface KeyedViolation {
  readonly key: string;
  readonly path: string;
  readonly message: string;
}

/** The counts of a compliance scan so far. */
export interface ComplianceTally {
  readonly scanned: number;
  readonly compliant: number;
  readonly nonCompliant: number;
  /** The first violations found, across entries, up to the accumulator's limit. */
  readonly violations: readonly KeyedViolation[];
}

/** One stored entry as a scan reads it. */
export interface ScannedEntry {
  readonly key: string;
  readonly value: unknown;
}

/**
 * Counts compliance over a tree read page by page. Every entry is counted; only the first
 * violations are kept, so memory stays bounded however large the tree is.
 */
const PASS: ValueVerdict = { kind: 'pass' };

export class ComplianceAccumulator {
  #scanned = 0;
  #compliant = 0;
  #nonCompliant = 0;
  readonly #violations: KeyedViolation[] = [];

  /** `validator` checks values given to add/addJson; the pool's verdicts go to addVerdict. */
  constructor(
    private readonly validator?: PolicyValidator,
    private readonly limit = DEFAULT_VIOLATION_LIMIT,
  ) {}

  /** Whether the report holds all the violations it keeps: later values need only a verdict. */
  get full(): boolean {
    return this.#violations.length >= this.limit;
  }

  /** Check one entry's value against the policy. */
  add(key: string, value: unknown): void {
    if (!this.validator) throw new Error('this accumulator takes verdicts, not values');
    // Once the list is full only the verdict matters: skip building messages.
    if (this.full) {
      this.addVerdict(key, this.validator.isValid(value) ? PASS : { kind: 'fail', violations: [] });
      return;
    }
    const violations = this.validator.validate(value);
    this.addVerdict(key, violations.length === 0 ? PASS : { kind: 'fail', violations });
  }

  /**
   * Count one entry judged elsewhere (the validation pool). A value over the validation budget
   * is non-compliant, with the budget as its violation.
   */
  addVerdict(key: string, verdict: ValueVerdict): void {
    this.#scanned += 1;
    if (verdict.kind === 'pass') {
      this.#compliant += 1;
      return;
    }
    this.#nonCompliant += 1;
    const violations: readonly Violation[] =
      verdict.kind === 'fail' ? verdict.violations : [{ path: '', message: verdict.reason }];
    for (const violation of violations.slice(0, this.limit - this.#violations.length)) {
      this.#violations.push({ key, path: violation.path, message: violation.message });
    }
  }

  /** Count an entry whose stored text does not parse: non-compliant, with the parser's words. */
  addUnparseable(key: string, message: string): void {
    this.#scanned += 1;
    this.#nonCompliant += 1;
    if (!this.full) this.#violations.push({ key, path: '', message });
  }

  /** Check an entry stored as JSON text; text that does not parse is non-compliant. */
  addJson(key: string, valueJson: string): void {
    let value: unknown;
    try {
      value = JSON.parse(valueJson);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.addUnparseable(key, `stored value is not valid JSON: ${message}`);
      return;
    }
    this.add(key, value);
  }

  /** Check every entry of one page. */
  addPage(entries: Iterable<ScannedEntry>): void {
    for (const entry of entries) this.add(entry.key, entry.value);
  }

  /** The tally so far (a snapshot: later pages do not change it). */
  report(): ComplianceTally {
    return {
      scanned: this.#scanned,
      compliant: this.#compliant,
      nonCompliant: this.#nonCompliant,
      violations: [...this.#violations],
    };
  }
}

import { DEFAULT_VIOLATION_LIMIT, type PolicyValidator } from './policy-compiler.js';

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
export class ComplianceAccumulator {
  #scanned = 0;
  #compliant = 0;
  #nonCompliant = 0;
  readonly #violations: KeyedViolation[] = [];

  constructor(
    private readonly validator: PolicyValidator,
    private readonly limit = DEFAULT_VIOLATION_LIMIT,
  ) {}

  /** Check one entry's value against the policy. */
  add(key: string, value: unknown): void {
    this.#scanned += 1;
    // Once the list is full only the verdict matters: skip building messages.
    if (this.#violations.length >= this.limit) {
      if (this.validator.isValid(value)) this.#compliant += 1;
      else this.#nonCompliant += 1;
      return;
    }
    const violations = this.validator.validate(value);
    if (violations.length === 0) {
      this.#compliant += 1;
      return;
    }
    this.#nonCompliant += 1;
    for (const violation of violations.slice(0, this.limit - this.#violations.length)) {
      this.#violations.push({ key, path: violation.path, message: violation.message });
    }
  }

  /** Check an entry stored as JSON text; text that does not parse is non-compliant. */
  addJson(key: string, valueJson: string): void {
    let value: unknown;
    try {
      value = JSON.parse(valueJson);
    } catch (error) {
      this.#scanned += 1;
      this.#nonCompliant += 1;
      if (this.#violations.length < this.limit) {
        const message = error instanceof Error ? error.message : String(error);
        this.#violations.push({
          key,
          path: '',
          message: `stored value is not valid JSON: ${message}`,
        });
      }
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

// The two sizes of a run: --quick (CI smoke, whole run under a minute) and full.
export interface Sizes {
  /**
   * The smoke (--quick): each row runs its real code path once, one round a side, without the
   * side comparisons a full run adds (connect-node's client, warm-up phases); ratios mean little.
   */
  smoke: boolean;
  entries: number;
  /** Bytes of the exported artifact. */
  exportBytes: number;
  catalogRows: number;
  /** Rows of the small catalog the deep page is compared with. */
  catalogBaselineRows: number;
  /** Seconds each unary load phase runs. */
  unarySeconds: number;
  unaryConcurrency: number;
  /** Requests per catalog page measurement. */
  catalogSamples: number;
  /** Backups the web row's catalog holds. */
  webBackups: number;
  /** Alternating rounds of each figure and its baseline in rows 8 and 9 (best one kept). */
  edgeRounds: number;
  /** Backups in the scope rows 14 previews. */
  retentionCatalog: number;
  /** Backups row 15's retention apply deletes (all but one). */
  retentionApply: number;
  /** Rounds of rows 22–23, each a capture and a restore on each artifact store (best kept). */
  storeRounds: number;
  /**
   * Entries of the trees rows 16-18 capture, one capture each, to export its biggest artifact
   * (300 000 entries: 13 MB; 800 000: 35 MB, near the largest part a capture writes). Row 19
   * captures the first.
   */
  exportCaptureEntries: number[];
  /** Alternating rounds of rows 16-19 (best kept); fresh server processes of row 18. */
  exportRounds: number;
  /** Row 26: the tenant's scheduled trees and its backups, spread over them. */
  metricsTrees: number;
  metricsBackups: number;
  /** Row 26: timed scrapes, after 3 untimed. */
  metricsScrapes: number;
  /** Rows 29–30: the big tree's entries, one fresh server each (time growth: first → last). */
  bigTreeEntries: number[];
  /**
   * Rows 30's capture and restore, and each one's peer, alternating (best kept): the first round
   * runs under the prober's phases, the others after them.
   */
  bigTreeRounds: number;
}

export const FULL: Sizes = {
  smoke: false,
  // Issue 17's figures: 300 000 entries of ≈ 300 B.
  entries: 300_000,
  exportBytes: 200 * 1024 * 1024,
  catalogRows: 1_000_000,
  catalogBaselineRows: 1_000,
  unarySeconds: 8,
  unaryConcurrency: 64,
  catalogSamples: 300,
  webBackups: 10_000,
  edgeRounds: 3,
  retentionCatalog: 100_000,
  retentionApply: 2_000,
  // Even: each store goes first in half the rounds.
  storeRounds: 4,
  exportCaptureEntries: [300_000, 800_000],
  exportRounds: 3,
  // Issue 35's bench: 1 000 trees and 100 000 backups.
  metricsTrees: 1_000,
  metricsBackups: 100_000,
  metricsScrapes: 30,
  // Issue 37's sizes.
  bigTreeEntries: [1_000_000, 5_000_000],
  bigTreeRounds: 3,
};

export const QUICK: Sizes = {
  smoke: true,
  entries: 4_000,
  exportBytes: 4 * 1024 * 1024,
  catalogRows: 5_000,
  catalogBaselineRows: 1_000,
  unarySeconds: 0.4,
  unaryConcurrency: 64,
  catalogSamples: 40,
  webBackups: 500,
  edgeRounds: 1,
  retentionCatalog: 2_000,
  retentionApply: 50,
  storeRounds: 1,
  exportCaptureEntries: [10_000],
  exportRounds: 1,
  metricsTrees: 50,
  metricsBackups: 2_000,
  metricsScrapes: 5,
  bigTreeEntries: [5_000],
  // Two, so the smoke runs the code of the rounds after the first too.
  bigTreeRounds: 2,
};

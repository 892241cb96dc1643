// One benchmark row: a figure, the baseline measured in the same run, their ratio and the target.
export interface Target {
  /** 'min': ratio must be at least `value`; 'max': at most. */
  kind: 'min' | 'max';
  value: number;
}

export interface BenchRow {
  row: number;
  name: string;
  dialect: 'sqlite' | 'postgres' | '-';
  figure: number;
  unit: string;
  /** Extra figures shown beside the main one (MB/s, p50/p99 …). */
  detail: string;
  baselineName: string;
  baseline: number | null;
  ratio: number | null;
  target: Target | null;
  note?: string;
  /**
   * The ratio the same client reaches in the same run against a bare handler that answers at
   * once (`bench/lib/bare-server.ts`): no server behind this transport, on this machine, can do
   * better, so a target beyond it is out of reach here whatever the engine does.
   */
  ceiling?: { ratio: number; detail: string };
}

export function meets(row: BenchRow): boolean | null {
  if (row.ratio === null || row.target === null) return null;
  return row.target.kind === 'min' ? row.ratio >= row.target.value : row.ratio <= row.target.value;
}

const fmt = (n: number | null, digits = 0): string =>
  n === null
    ? '—'
    : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export function formatFigure(n: number): string {
  return fmt(n, n >= 100 ? 0 : n >= 10 ? 1 : 2);
}

/** A line for every row whose target lies beyond its measured ceiling. */
export function ceilingLines(rows: readonly BenchRow[]): string[] {
  return rows.flatMap((r) => {
    if (!r.ceiling || r.target === null) return [];
    const beyond =
      r.target.kind === 'min' ? r.ceiling.ratio < r.target.value : r.ceiling.ratio > r.target.value;
    if (!beyond) return [];
    return [
      `row ${r.row} (${r.dialect}): target ${r.target.kind === 'min' ? '≥' : '≤'} ${r.target.value} ` +
        `is beyond what a bare handler reaches with the same client in this run: ` +
        `${fmt(r.ceiling.ratio, 3)} (${r.ceiling.detail})`,
    ];
  });
}

/** The rows as a Markdown table (what the console prints and docs/performance.md carries). */
export function renderTable(rows: readonly BenchRow[]): string {
  const header = ['#', 'figure', 'db', 'value', 'baseline (same run)', 'ratio', 'target', 'ok'];
  const lines = rows.map((r) => {
    const ok = meets(r);
    return [
      String(r.row),
      r.name,
      r.dialect,
      `${formatFigure(r.figure)} ${r.unit}${r.detail ? ` (${r.detail})` : ''}`,
      r.baseline === null
        ? r.baselineName
        : `${r.baselineName}: ${formatFigure(r.baseline)} ${r.unit}`,
      r.ratio === null ? '—' : fmt(r.ratio, 3),
      r.target === null ? '—' : `${r.target.kind === 'min' ? '≥' : '≤'} ${r.target.value}`,
      ok === null ? '—' : ok ? 'yes' : 'NO',
    ];
  });
  const all = [header, ...lines];
  const widths = header.map((_, i) => Math.max(...all.map((l) => (l[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [
    line(header),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...lines.map(line),
  ].join('\n');
}

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

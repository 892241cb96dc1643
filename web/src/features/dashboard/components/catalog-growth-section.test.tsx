import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { CatalogGrowthPointSchema, CatalogSummaryResponseSchema } from '@store/contract';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { freedText, growthChangeText, growthSeries } from '../utils/catalog-growth';
import { CatalogGrowthSection } from './catalog-growth-section';

const DAY = 86_400_000;
const FIRST_DAY = Date.UTC(2026, 9, 28);

/** 30 points: `backups(i)` backups of 1 KiB each on day i. */
function points(backups: (i: number) => number) {
  return Array.from({ length: 30 }, (_, i) =>
    create(CatalogGrowthPointSchema, {
      day: timestampFromMs(FIRST_DAY + i * DAY),
      backupCount: BigInt(backups(i)),
      storedBytes: BigInt(backups(i) * 1024),
    }),
  );
}

const summary = create(CatalogSummaryResponseSchema, {
  growth: points((i) => 10 + i),
  retentionFreedLastDay: { backupCount: 1n, bytes: 2048n },
  retentionFreedLast30Days: { backupCount: 12n, bytes: 5n * 1024n * 1024n },
  trees: [
    { treeId: 'small', growth: points((i) => (i < 20 ? 0 : 1)) },
    { treeId: 'big', growth: points((i) => 10 + i - (i < 20 ? 0 : 1)) },
    { treeId: 'empty', growth: points(() => 0) },
  ],
});

describe('catalog growth', () => {
  it('reads the change over the window and what retention freed', () => {
    const series = growthSeries(summary.growth);
    expect(series.latest).toEqual({ dayMs: FIRST_DAY + 29 * DAY, backups: 39, bytes: 39 * 1024 });
    expect(growthChangeText(series)).toBe('+29 backups, +29.0 KiB');
    expect(growthChangeText(growthSeries(points(() => 3)))).toBe('±0 backups, ±0 B');
    expect(growthChangeText(growthSeries(points((i) => 30 - i)))).toBe('−29 backups, −29.0 KiB');
    expect(freedText(summary.retentionFreedLastDay)).toBe('2.0 KiB in 1 backup');
    expect(freedText(undefined)).toBe('nothing');
  });

  it('draws the total and each tree with backups, the largest first, and says what retention freed', () => {
    render(
      <MemoryRouter>
        <CatalogGrowthSection summary={summary} isPending={false} error={null} onRetry={() => {}} />
      </MemoryRouter>,
    );
    const freed = screen.getByTestId('retention-freed');
    expect(freed.textContent).toContain('Retention freed, last 24 hours2.0 KiB in 1 backup');
    expect(freed.textContent).toContain('Retention freed, last 30 days5.0 MiB in 12 backups');
    expect(
      within(screen.getByTestId('growth-total')).getByRole('img', {
        name: 'All trees: 39 backups, 39.0 KiB stored now; +29 backups, +29.0 KiB since 2026-10-28',
      }),
    ).toBeTruthy();
    const trees = screen.getAllByTestId('growth-tree');
    // The tree with no backup on any day has no chart.
    expect(trees.map((t) => within(t).getByRole('link').textContent)).toEqual(['big', 'small']);
  });
});

import type { Page } from '@playwright/test';
import { elementsPastTheEdge, pageWidths } from '../pages/app-routes';
import { expect } from './fixtures';
import { brokenWords } from './words';

/** How long a page may take to lay itself out again after the window changed size. */
const SETTLE_MS = 5_000;

/**
 * Nothing sticks out past the window, and no word is cut to fit, at the size now set. Right
 * after a resize (or while a poll re-renders) the page may not have laid itself out again yet:
 * the width is polled until it fits, and only a page that still does not fit fails, naming
 * what sticks out.
 */
export async function expectReadable(page: Page, what: string): Promise<void> {
  const fits = async () => {
    const widths = await pageWidths(page);
    return widths.scrollWidth <= widths.innerWidth;
  };
  for (const started = Date.now(); !(await fits()) && Date.now() - started < SETTLE_MS;) {
    await page.waitForTimeout(100);
  }
  const widths = await pageWidths(page);
  expect(
    widths.scrollWidth,
    `${what}: ${(await elementsPastTheEdge(page)).join(', ')}`,
  ).toBeLessThanOrEqual(widths.innerWidth);
  expect(await brokenWords(page), `${what}: words broken`).toEqual([]);
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { repoRoot } from '../support/stack';

/** The two sizes every route is looked at: a phone held upright, and a wide desktop window. */
export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  wide: { width: 1440, height: 900 },
} as const;

/** One route of the console opened with real ids, and what it shows once loaded. */
export interface RouteVisit {
  /** The route's pattern in web/src/app/routes.tsx ('backups/:backupId'). */
  pattern: string;
  url: string;
  /** The page's main heading once its data is in. */
  heading: string | RegExp;
  /** Whether the visit happens signed out (sign-in and the OIDC callback). */
  signedOut?: boolean;
}

/**
 * Every `path:` of the console's route table, as written there: the walk checks it covers each,
 * so a route added later cannot slip past the phone check.
 */
export function declaredRoutePatterns(): string[] {
  const source = readFileSync(join(repoRoot, 'web/src/app/routes.tsx'), 'utf8');
  const patterns = [...source.matchAll(/\bpath: '([^']+)'/g)].map((match) => match[1] as string);
  // The dashboard is the index route of '/': it has no path of its own.
  return [...patterns.filter((pattern) => pattern !== '/'), 'index'];
}

/**
 * Opens a route and waits until its heading is shown and nothing says it is still loading, so
 * the width measured is the width of the page with its data.
 */
export async function openRoute(page: Page, visit: RouteVisit): Promise<void> {
  await page.goto(visit.url);
  await expect(page.getByRole('heading', { level: 1, name: visit.heading })).toBeVisible();
  await expect(page.locator('.loading')).toHaveCount(0);
}

/** The page's layout width against the window's: the first is larger when anything sticks out. */
export async function pageWidths(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
}

/** The elements that reach past the right edge of the window: to say what overflows. */
export async function elementsPastTheEdge(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const limit = window.innerWidth;
    const found: string[] = [];
    for (const element of Array.from(document.querySelectorAll('body *'))) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.right <= limit + 0.5) continue;
      // Report the outermost offender only.
      const parent = element.parentElement?.getBoundingClientRect();
      if (parent && parent.right > limit + 0.5) continue;
      const name = element.tagName.toLowerCase();
      const classes = element.getAttribute('class');
      found.push(`${name}${classes ? '.' + classes.split(' ').join('.') : ''} → ${box.right}px`);
    }
    return found.slice(0, 8);
  });
}

import { expect, type Locator, type Page } from '@playwright/test';
import { VIEWPORTS, elementsPastTheEdge, pageWidths } from './app-routes';

/** The dashboard's catalog growth panel: retention's freed bytes and the growth sparklines. */
export class CatalogGrowthPanel {
  constructor(readonly page: Page) {}

  get region(): Locator {
    return this.page.getByRole('region', { name: 'Catalog growth, last 30 days' });
  }

  get freed(): Locator {
    return this.region.getByTestId('retention-freed');
  }

  get total(): Locator {
    return this.region.getByTestId('growth-total');
  }

  get trees(): Locator {
    return this.region.getByTestId('growth-tree');
  }

  /** Full-page shots at 1440×900 and 390×844 (/tmp/shots/growth-*.png), none wider than the window. */
  async screenshotBothSizes(): Promise<void> {
    for (const viewport of [VIEWPORTS.wide, VIEWPORTS.phone]) {
      await this.page.setViewportSize(viewport);
      await this.region.scrollIntoViewIfNeeded();
      await this.page.screenshot({
        path: `/tmp/shots/growth-dashboard-${viewport.width}.png`,
        fullPage: true,
      });
      await this.region.screenshot({ path: `/tmp/shots/growth-panel-${viewport.width}.png` });
      const widths = await pageWidths(this.page);
      expect(
        widths.scrollWidth,
        (await elementsPastTheEdge(this.page)).join(', '),
      ).toBeLessThanOrEqual(widths.innerWidth);
    }
    await this.page.setViewportSize(VIEWPORTS.wide);
  }
}

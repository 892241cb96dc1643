import { expect, type Locator, type Page } from '@playwright/test';
import { VIEWPORTS, elementsPastTheEdge, pageWidths } from './app-routes';

/** The retention page of a scope (/retention?tree=…) and the protection panel of a backup. */
export class RetentionPage {
  constructor(readonly page: Page) {}

  async open(treeId: string): Promise<void> {
    await this.page.goto(`/retention?tree=${encodeURIComponent(treeId)}`);
    await expect(this.page.getByRole('heading', { level: 1, name: 'Retention' })).toBeVisible();
    await expect(this.rules.getByLabel('Keep last')).toBeVisible();
  }

  get rules(): Locator {
    return this.page.getByRole('region', { name: /^Rules of / });
  }

  get preview(): Locator {
    return this.page.getByRole('region', { name: /^Preview of / });
  }

  /** The "Would be deleted" table's rows (its caption names it). */
  get deletions(): Locator {
    return this.page.getByRole('table', { name: 'Would be deleted' }).locator('tbody tr');
  }

  get kept(): Locator {
    return this.page.getByRole('table', { name: 'Kept, and why' }).locator('tbody tr');
  }

  async setCount(label: string, value: string): Promise<void> {
    await this.rules.getByLabel(label, { exact: true }).fill(value);
  }

  async save(): Promise<void> {
    await this.rules.getByRole('button', { name: 'Save rules' }).click();
    await expect(
      this.page.getByRole('heading', { name: 'Preview of the saved rules' }),
    ).toBeVisible();
  }

  /** The "apply after each scheduled backup" choice of the rules form. */
  get autoApply(): Locator {
    return this.rules.getByRole('checkbox', {
      name: 'Apply after each scheduled backup of this scope',
    });
  }

  /** The confirm a save opens when it turns automatic retention on. */
  get autoApplyConfirm(): Locator {
    return this.page.getByRole('dialog', { name: /^Apply these rules by themselves after each/ });
  }

  /** Clicks Apply and confirms; the button and the confirm both name count and bytes. */
  async apply(expectedLabel: RegExp): Promise<void> {
    await this.preview.getByRole('button', { name: expectedLabel }).click();
    const dialog = this.page.getByRole('dialog', { name: /^Apply retention to / });
    await dialog.getByRole('button', { name: expectedLabel }).click();
    await expect(this.page.getByTestId('retention-progress')).toContainText('Succeeded', {
      timeout: 20_000,
    });
  }
}

/** A backup's protection panel on its detail page. */
export class ProtectionPanel {
  constructor(readonly page: Page) {}

  get panel(): Locator {
    return this.page.getByRole('region', { name: 'Protection' });
  }

  async protect(reason: string): Promise<void> {
    await this.panel.getByRole('button', { name: 'Protect' }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Protect this backup?' });
    await dialog.getByLabel(/^Why/).fill(reason);
    await dialog.getByRole('button', { name: 'Protect' }).click();
    await expect(this.panel.getByTestId('protection-facts')).toContainText(reason);
  }

  async unprotect(reason: string): Promise<void> {
    await this.panel.getByRole('button', { name: 'Unprotect' }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Lift the protection?' });
    await dialog.getByLabel(/^Why/).fill(reason);
    await dialog.getByRole('button', { name: 'Unprotect' }).click();
    await expect(this.panel).toContainText('Not protected');
  }
}

/** Screenshots at both sizes (/tmp/shots/retention-<name>-<width>.png), none wider than the window. */
export async function screenshotBothSizes(page: Page, name: string): Promise<void> {
  for (const viewport of [VIEWPORTS.wide, VIEWPORTS.phone]) {
    await page.setViewportSize(viewport);
    await page.screenshot({
      path: `/tmp/shots/retention-${name}-${viewport.width}.png`,
      fullPage: true,
    });
    const widths = await pageWidths(page);
    expect(widths.scrollWidth, (await elementsPastTheEdge(page)).join(', ')).toBeLessThanOrEqual(
      widths.innerWidth,
    );
  }
  await page.setViewportSize(VIEWPORTS.wide);
}

import { expect, type Locator, type Page } from '@playwright/test';

/** The operations tray on every signed-in page: a pill, a docked column or a bottom sheet. */
export class OperationsTray {
  constructor(readonly page: Page) {}

  get root(): Locator {
    return this.page.getByRole('complementary', { name: 'Operations tray' });
  }

  /** The pill (or the open tray's header): "Operations: 1 running, 2 finished". */
  get toggle(): Locator {
    return this.root.getByRole('button', { name: /^Operations:/ });
  }

  async expectRunning(count: number): Promise<void> {
    await expect(this.toggle).toHaveAccessibleName(new RegExp(`^Operations: ${count} running`));
  }

  /** pill, docked or sheet, from the tray's class. */
  async layout(): Promise<'pill' | 'docked' | 'sheet'> {
    const className = (await this.root.getAttribute('class')) ?? '';
    if (className.includes('tray--docked')) return 'docked';
    if (className.includes('tray--sheet')) return 'sheet';
    return 'pill';
  }

  async open(): Promise<void> {
    if ((await this.toggle.getAttribute('aria-expanded')) !== 'true') await this.toggle.click();
    await expect(this.toggle).toHaveAttribute('aria-expanded', 'true');
  }

  async close(): Promise<void> {
    if ((await this.toggle.getAttribute('aria-expanded')) === 'true') await this.toggle.click();
    await expect(this.toggle).toHaveAttribute('aria-expanded', 'false');
  }
}

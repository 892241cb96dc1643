import { expect, type Locator, type Page } from '@playwright/test';
import { RestoreDialog } from './backup-insight-pages';

const PREVIEW_STATUS = '**/store.insight.v1.BackupInsightService/GetBackupInsightOperationStatus';

/**
 * The in-place restore confirmation with its guard: the Restore button, the reason it is
 * disabled, and a way to hold the preview's status answers so "not finished yet" can be seen
 * (a preview of a small tree finishes faster than a page can look at it).
 */
export class RestoreGuard extends RestoreDialog {
  private held: (() => void)[] = [];
  private holding = false;
  private routed = false;

  constructor(page: Page, title: string) {
    super(page, title);
  }

  get restoreButton(): Locator {
    return this.confirmation.getByRole('button', { name: 'Restore in place' });
  }

  get reason(): Locator {
    return this.confirmation.getByTestId('restore-gate-reason');
  }

  /** From now on the console's preview status polls wait (server untouched) until release(). */
  async holdPreviewStatus(): Promise<void> {
    this.holding = true;
    if (this.routed) return;
    this.routed = true;
    await this.page.route(PREVIEW_STATUS, async (route) => {
      if (this.holding) await new Promise<void>((resolve) => this.held.push(resolve));
      await route.continue();
    });
  }

  releasePreviewStatus(): void {
    this.holding = false;
    for (const resolve of this.held.splice(0)) resolve();
  }

  /** Back to the options, change the key prefix, and continue to a new confirmation. */
  async changePrefix(keyPrefix: string): Promise<void> {
    await this.confirmation.getByRole('button', { name: 'Back' }).click();
    await this.dialog.getByLabel('Key prefix scope (optional)').fill(keyPrefix);
    await this.dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(this.confirmation).toBeVisible();
  }
}

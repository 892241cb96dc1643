import { expect, type Locator, type Page } from '@playwright/test';

/** /operations/:id — one operation's status, progress, timings, outcome and result. */
export class OperationDetailPage {
  constructor(readonly page: Page) {}

  async open(operationId: string): Promise<void> {
    await this.page.goto(`/operations/${operationId}`);
    await expect(this.status).toBeVisible();
  }

  get status(): Locator {
    return this.page.getByRole('heading', { name: /^Status/ });
  }

  progressBar(kindWords: string): Locator {
    return this.page.getByRole('main').getByRole('progressbar', { name: `${kindWords} progress` });
  }

  /** The outcome panel of an operation that did not succeed ("Cancelled", "What went wrong"). */
  outcome(title: 'Cancelled' | 'What went wrong'): Locator {
    return this.page.getByRole('region', { name: title, exact: true });
  }

  async cancel(): Promise<void> {
    await this.page.getByRole('button', { name: 'Cancel operation' }).click();
    const dialog = this.page.getByRole('dialog', { name: /^Cancel this/ });
    await dialog.getByRole('button', { name: 'Cancel operation' }).click();
    await expect(dialog).toBeHidden();
  }
}

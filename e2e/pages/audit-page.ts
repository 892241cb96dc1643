import { expect, type Locator, type Page } from '@playwright/test';

/** The console's audit page (/audit): steps an admin takes, by role and label. */
export class AuditPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Audit' })
      .click();
    await expect(this.page.getByRole('heading', { level: 1, name: 'Audit' })).toBeVisible();
  }

  get filters(): Locator {
    return this.page.getByRole('search', { name: 'Filter audit records' });
  }

  /** Rows of the table (the header row left out). */
  get rows(): Locator {
    return this.page
      .getByRole('table')
      .getByRole('row')
      .filter({ hasNot: this.page.getByRole('columnheader') });
  }

  row(text: string | RegExp): Locator {
    return this.rows.filter({ hasText: text });
  }

  async filterOutcome(outcome: string): Promise<void> {
    await this.filters.getByLabel('Outcome').selectOption(outcome);
  }

  async filterMethod(method: string): Promise<void> {
    await this.filters.getByLabel('Method').fill(method);
    await this.filters.getByRole('button', { name: 'Apply' }).click();
  }

  async clearFilters(): Promise<void> {
    await this.filters.getByRole('button', { name: 'Clear filters' }).click();
  }
}

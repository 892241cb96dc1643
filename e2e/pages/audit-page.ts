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

  /** Chooses an action by its RPC name (the option's value; its label is the words). */
  async filterMethod(method: string): Promise<void> {
    await this.filters.getByLabel('Action').selectOption(method);
  }

  /** Opens a row's detail and returns it (the row below, with the record's facts). */
  async openDetail(row: Locator): Promise<Locator> {
    await row.getByRole('button', { name: /^Detail/ }).click();
    return this.page.locator('.audit-table__detail');
  }

  /** Clicks an export button and returns the downloaded file's text and name. */
  async export(format: 'CSV' | 'JSON Lines'): Promise<{ text: string; fileName: string }> {
    const download = this.page.waitForEvent('download');
    await this.page.getByRole('button', { name: `Export ${format}` }).click();
    const file = await download;
    const stream = await file.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return { text: Buffer.concat(chunks).toString('utf8'), fileName: file.suggestedFilename() };
  }

  /** Clears every filter and waits until the URL says so (the next filter builds on it). */
  async clearFilters(): Promise<void> {
    await this.filters.getByRole('button', { name: 'Clear filters' }).click();
    await expect(this.page).not.toHaveURL(/[?&](subject|method|outcome|since|until)=/);
  }
}

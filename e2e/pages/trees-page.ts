import { expect, type Locator, type Page } from '@playwright/test';

/** The console's trees page (/trees): steps a user takes, by role and label. */
export class TreesPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page
      .getByRole('navigation', { name: /main/i })
      .getByRole('link', { name: 'Trees' })
      .click();
    await expect(this.page.getByRole('heading', { level: 1, name: 'Trees' })).toBeVisible();
  }

  get importDialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Import entries from JSON Lines' });
  }

  /** Opens the import dialog, picks the file and starts importing into `treeId`. */
  async startImport(treeId: string, filePath: string): Promise<void> {
    await this.page.getByRole('button', { name: 'Import JSON Lines' }).click();
    const dialog = this.importDialog;
    await dialog.getByLabel('Tree').fill(treeId);
    await dialog.getByLabel('JSON Lines file').setInputFiles(filePath);
    await dialog.getByRole('button', { name: 'Start import' }).click();
  }

  get importReport(): Locator {
    return this.importDialog.getByTestId('import-report');
  }

  /** "Read 300 lines in the export-artifact shape (gzip)": the shapes the import read. */
  get importShapes(): Locator {
    return this.importReport.getByTestId('import-shapes');
  }

  treeRow(treeId: string): Locator {
    return this.page.getByRole('row', { name: new RegExp(`^${treeId}\\b`) });
  }
}

import { expect, type Locator, type Page } from '@playwright/test';

/** Added / changed / removed / unchanged as a comparison's counts show them. */
export interface ShownCounts {
  Added: number;
  Changed: number;
  Removed: number;
  Unchanged: number;
}

/** One difference as listed: its key, its change badge, and both values read off its diff. */
export interface ShownDifference {
  key: string;
  change: string;
  /** The value before (parsed from the diff's unchanged and removed lines); undefined if none. */
  before: unknown;
  /** The value after (unchanged and added lines); undefined if none. */
  after: unknown;
}

/** Both sides of a JSON diff view, parsed back from its lines. */
async function readSides(view: Locator): Promise<{ before: unknown; after: unknown }> {
  const before: string[] = [];
  const after: string[] = [];
  for (const line of await view.locator('.json-diff__line').all()) {
    const kind = (await line.getAttribute('class')) ?? '';
    const text = await line.locator('.json-diff__text').innerText();
    if (!kind.includes('--added')) before.push(text);
    if (!kind.includes('--removed')) after.push(text);
  }
  const parse = (lines: string[]) =>
    lines.length ? (JSON.parse(lines.join('\n')) as unknown) : undefined;
  return { before: parse(before), after: parse(after) };
}

/** Reads the counts of a comparison view inside `scope`, once they are shown. */
export async function readCounts(scope: Locator): Promise<ShownCounts> {
  const counts = scope.getByTestId('comparison-counts');
  await expect(counts).toBeVisible();
  const out: Record<string, number> = {};
  for (const item of await counts.locator('div').all()) {
    const name = (await item.locator('dt').innerText()).trim();
    out[name] = Number((await item.locator('dd').innerText()).replace(/[^0-9]/g, ''));
  }
  return out as unknown as ShownCounts;
}

/** Reads every difference of a comparison view inside `scope`, walking its pages. */
export async function readDifferences(scope: Locator): Promise<ShownDifference[]> {
  const out: ShownDifference[] = [];
  const region = scope.getByRole('region', { name: 'Differences' });
  await expect(region.getByTestId('difference').first()).toBeVisible();
  for (;;) {
    for (const item of await region.getByTestId('difference').all()) {
      out.push({
        key: (await item.locator('.differences__key').innerText()).trim(),
        change: (await item.locator('.badge').innerText()).trim(),
        ...(await readSides(item.getByLabel('Value before and after'))),
      });
    }
    const next = region.getByRole('button', { name: 'Next differences' });
    if (!(await next.isVisible()) || (await next.isDisabled())) return out;
    const first = await region.getByTestId('difference').first().innerText();
    await next.click();
    await expect(region.getByTestId('difference').first()).not.toHaveText(first);
  }
}

/** The restore dialog of a backup's page, up to its confirmation with the preview. */
export class RestoreDialog {
  constructor(
    readonly page: Page,
    readonly title: string,
  ) {}

  get dialog(): Locator {
    return this.page.getByRole('dialog', { name: `Restore ${this.title}` });
  }

  get confirmation(): Locator {
    return this.dialog.getByRole('group', { name: 'Confirm the in-place restore' });
  }

  get preview(): Locator {
    return this.confirmation.getByRole('region', { name: 'Restore preview' });
  }

  /** Opens the dialog on the backup's page, chooses In place and continues to its confirmation. */
  async openInPlace(backupId: string): Promise<void> {
    await this.page.goto(`/backups/${backupId}`);
    await this.page.getByRole('button', { name: 'Restore' }).click();
    await this.dialog.getByRole('radio', { name: /In place/ }).check();
    await this.dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(this.confirmation).toBeVisible();
  }

  /** Waits for the preview and reads its counts and differences. */
  async readPreview(): Promise<{ counts: ShownCounts; differences: ShownDifference[] }> {
    const counts = await readCounts(this.preview);
    const differences = await readDifferences(this.preview);
    return { counts, differences };
  }

  async confirm(label: 'Restore in place' | 'Restore anyway' = 'Restore in place') {
    await this.confirmation.getByRole('button', { name: label }).click();
  }
}

/** The counts of a revert preview, which names its changes after what the revert does. */
export interface ShownRevertCounts {
  'Brought back': number;
  'Changed back': number;
  Removed: number;
  Unchanged: number;
}

/** The Revert restore confirmation of a finished restore's operation page. */
export class RevertDialog {
  constructor(readonly page: Page) {}

  get dialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Revert this restore?' });
  }

  get preview(): Locator {
    return this.dialog.getByRole('region', { name: 'Revert preview' });
  }

  /** What the dialog says about the writes made since the restore, once the preview counted. */
  get writes(): Locator {
    return this.dialog.getByTestId('revert-writes');
  }

  /** Opens it from the restore's operation page (at `operationUrl`). */
  async open(operationUrl: string): Promise<void> {
    await this.page.goto(operationUrl);
    await this.page.getByRole('button', { name: 'Revert restore' }).click();
    await expect(this.dialog).toBeVisible();
  }

  async readPreview(): Promise<{ counts: ShownRevertCounts; differences: ShownDifference[] }> {
    const counts = (await readCounts(this.preview)) as unknown as ShownRevertCounts;
    const differences = await readDifferences(this.preview);
    return { counts, differences };
  }

  /** The confirm button: "Revert restore", or "Revert and discard N writes" when there are any. */
  confirmButton(label: string | RegExp = /^Revert/): Locator {
    return this.dialog.getByRole('button', { name: label });
  }

  /** Ticks the acknowledgment that the writes made since the restore are discarded. */
  async acknowledgeDiscard(): Promise<void> {
    await this.dialog
      .getByRole('checkbox', { name: /^Discard the .* made since the restore$/ })
      .check();
  }

  /** After the server refused the revert: starts a new preview of the tree as it is now. */
  async previewAgain(): Promise<void> {
    await this.dialog.getByRole('button', { name: 'Preview again' }).click();
  }
}

/** The catalog's "select two → compare" and the compare page it leads to. */
export class BackupComparePage {
  constructor(readonly page: Page) {}

  async compareFromCatalog(olderName: string, newerName: string): Promise<void> {
    await this.page.goto('/backups');
    await this.page.getByRole('checkbox', { name: `Compare ${newerName}` }).check();
    await this.page.getByRole('checkbox', { name: `Compare ${olderName}` }).check();
    await this.page
      .getByRole('group', { name: 'Compare two backups' })
      .getByRole('button', { name: 'Compare' })
      .click();
    await expect(
      this.page.getByRole('heading', { level: 1, name: 'Compare backups' }),
    ).toBeVisible();
    await expect(this.page).toHaveURL(/[?&]diff=/);
  }

  get main(): Locator {
    return this.page.getByRole('main');
  }
}

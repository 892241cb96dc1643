import { expect, type Locator } from '@playwright/test';
import { SchemaPage } from './schema-page';

/** The schema page's issue-16 steps: dry-run a draft policy, fix and replay dead letters. */
export class SchemaInsightPage extends SchemaPage {
  /** Types a draft schema and runs it against the tree's entries, without saving it. */
  async dryRun(schema: string): Promise<void> {
    await this.policyEditor.getByLabel('JSON Schema').fill(schema);
    await this.policyEditor.getByRole('button', { name: 'Dry run' }).click();
  }

  /** "12 of 40 000 entries would be refused; 11 × /email format, …" once the run is done. */
  get dryRunSummary(): Locator {
    return this.policyEditor.getByTestId('dry-run-summary');
  }

  get replaySection(): Locator {
    return this.section('Fix and replay');
  }

  /** Opens the fix-and-replay dialog of a letter by key. */
  async openReplay(key: string): Promise<Locator> {
    await this.replaySection.getByRole('button', { name: `Fix and replay ${key}` }).click();
    const dialog = this.page.getByRole('dialog', { name: `Fix and replay ${key}` });
    await expect(dialog).toBeVisible();
    return dialog;
  }

  /** Replaces the value in the open dialog; the policy's verdict updates as it is typed. */
  async editValue(dialog: Locator, value: unknown): Promise<void> {
    await dialog.getByLabel('Value').fill(JSON.stringify(value, null, 2));
  }

  async replay(dialog: Locator): Promise<void> {
    await dialog.getByRole('button', { name: 'Replay', exact: true }).click();
  }

  async showReplayed(): Promise<void> {
    const checkbox = this.replaySection.getByLabel('Show replayed letters');
    // After a replay the sections above refetch and change height; a click that lands while
    // they settle can miss the box (seen once in CI). check() is idempotent, so try again.
    await expect(async () => {
      await checkbox.check({ timeout: 2_000 });
    }).toPass({ timeout: 10_000 });
  }

  get deadLettersSection(): Locator {
    return this.section('Dead letters');
  }

  /** Opens the confirm of one letter's discard (by key); returns the dialog. */
  async askDiscard(key: string): Promise<Locator> {
    await this.deadLettersSection
      .getByRole('button', { name: `Discard dead letter ${key}` })
      .click();
    const dialog = this.page.getByRole('dialog', { name: `Discard the dead letter of ${key}?` });
    await expect(dialog).toBeVisible();
    return dialog;
  }

  /** Opens the confirm of "Discard all (N)"; returns the dialog. */
  async askDiscardAll(count: number): Promise<Locator> {
    await this.deadLettersSection.getByRole('button', { name: `Discard all (${count})` }).click();
    const dialog = this.page.getByRole('dialog', { name: `Discard all ${count} dead letters?` });
    await expect(dialog).toBeVisible();
    return dialog;
  }

  /** Confirms an open discard dialog and waits for it to close. */
  async confirmDiscard(dialog: Locator, note = ''): Promise<void> {
    if (note) await dialog.getByLabel('Note (optional)').fill(note);
    await dialog.getByRole('button', { name: /^Discard \d+ dead letters?$/ }).click();
    await expect(dialog).toBeHidden();
  }

  /** The pending count each dead-letter section shows. */
  async pendingCounts(): Promise<{ deadLetters: string; replay: string }> {
    return {
      deadLetters:
        (await this.deadLettersSection.getByTestId('dead-letter-count').textContent()) ?? '',
      replay: (await this.replaySection.getByTestId('replay-pending-count').textContent()) ?? '',
    };
  }
}

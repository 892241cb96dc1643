import { expect, type Locator, type Page } from '@playwright/test';

/** A scope's schedules page (/schedules?tree=…) and the schedule overview, by role and label. */
export class SchedulesPages {
  constructor(readonly page: Page) {}

  /** Opens a tree's schedules (the whole tree as scope). */
  async openScope(treeId: string): Promise<void> {
    await this.page.goto(`/schedules?tree=${encodeURIComponent(treeId)}`);
    await expect(this.page.getByRole('region', { name: 'Scope status' })).toBeVisible();
  }

  /** Registers the full or incremental schedule of the open scope. */
  async register(kind: 'Full' | 'Incremental', amount: string, unit: string): Promise<void> {
    const form = this.page.getByRole('form', { name: `${kind} backups schedule` });
    await form.getByLabel(`${kind} backup interval`).fill(amount);
    await form.getByLabel('Unit').selectOption(unit);
    await form.getByRole('button', { name: /Register schedule|Change interval/ }).click();
    await expect(
      this.page.getByRole('region', { name: new RegExp(`^${kind} backups`) }).getByRole('status'),
    ).toBeVisible();
  }

  get settings(): Locator {
    return this.page.getByRole('form', { name: 'Schedule settings' });
  }

  /** Anchors the open scope's cadences at a time of day in a zone, and saves. */
  async anchor(timeOfDay: string, timeZone: string): Promise<Locator> {
    await this.settings.getByLabel('Start at a time of day').check();
    await this.settings.getByLabel('Time of day', { exact: true }).fill(timeOfDay);
    await this.settings.getByLabel('Time zone', { exact: true }).fill(timeZone);
    await this.settings.getByRole('button', { name: 'Save settings' }).click();
    const saved = this.page
      .getByRole('region', { name: 'Start time and names' })
      .getByRole('status');
    await expect(saved).toContainText('Saved.');
    return saved;
  }

  /** Opens the schedule overview from the main navigation. */
  async openOverview(): Promise<void> {
    await this.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Schedule overview' })
      .click();
    await expect(
      this.page.getByRole('heading', { level: 1, name: 'Schedule overview' }),
    ).toBeVisible();
  }

  /** The overview's row of a scope, found by its edit link. */
  overviewRow(scopeName: string): Locator {
    return this.page.getByRole('row').filter({
      has: this.page.getByRole('link', {
        name: `Edit the schedules of ${scopeName}`,
        exact: true,
      }),
    });
  }
}

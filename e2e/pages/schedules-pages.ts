import { expect, type Locator, type Page } from '@playwright/test';

/** A scope's schedules page (/schedules?tree=…) and the schedule overview, by role and label. */
export class SchedulesPages {
  constructor(readonly page: Page) {}

  /** Opens a tree's schedules (the whole tree as scope). */
  async openScope(treeId: string): Promise<void> {
    await this.page.goto(`/schedules?tree=${encodeURIComponent(treeId)}`);
    await expect(this.page.getByRole('region', { name: 'Scope status' })).toBeVisible();
  }

  /** The scope's one schedule form: both cadences, the time of day and the names. */
  get form(): Locator {
    return this.page.getByRole('form', { name: 'Schedule', exact: true });
  }

  /** The full or incremental part of the form ("Full backups Every 1 day"). */
  cadence(kind: 'Full' | 'Incremental'): Locator {
    return this.form.getByRole('group', { name: new RegExp(`^${kind} backups`) });
  }

  /** Fills one cadence in the form (turning it on when it is not registered yet). */
  async fillCadence(kind: 'Full' | 'Incremental', amount: string, unit: string): Promise<void> {
    const part = this.cadence(kind);
    // The form comes with the scope's settings, after the scope status.
    await expect(part).toBeVisible();
    const on = part.getByLabel(`Schedule ${kind.toLowerCase()} backups`);
    if (await on.isVisible()) await on.check();
    await part.getByLabel(`${kind} backup interval`).fill(amount);
    await part.getByLabel('Unit').selectOption(unit);
  }

  /** Fills the time of day the cadences start at. */
  async fillStartTime(timeOfDay: string, timeZone: string): Promise<void> {
    await this.form.getByLabel('Start at a time of day').check();
    await this.form.getByLabel('Time of day', { exact: true }).fill(timeOfDay);
    await this.form.getByLabel('Time zone', { exact: true }).fill(timeZone);
  }

  /** Saves the whole form; returns the "Saved. …" notice. */
  async save(): Promise<Locator> {
    await this.form.getByRole('button', { name: 'Save schedule' }).click();
    const saved = this.page
      .getByRole('region', { name: 'Schedule', exact: true })
      .getByRole('status')
      .filter({ hasText: /^Saved\./ });
    await expect(saved).toBeVisible();
    return saved;
  }

  /** Registers (or changes) the full or incremental schedule of the open scope, and saves. */
  async register(kind: 'Full' | 'Incremental', amount: string, unit: string): Promise<void> {
    await this.fillCadence(kind, amount, unit);
    await this.save();
    await expect(this.cadence(kind).getByRole('status')).toBeVisible();
  }

  /** The "Show times in" switch. */
  get zoneSwitch(): Locator {
    return this.page.getByRole('group', { name: 'Show times in' });
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

import { expect, type Locator, type Page } from '@playwright/test';

/** The notifications page (/notifications): channels, the one-time secret, tests and logs. */
export class NotificationsPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto('/notifications');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
    await expect(this.page.locator('.loading')).toHaveCount(0);
  }

  /** A channel's card, named by its heading. */
  channel(name: string): Locator {
    return this.page.getByRole('region', { name, exact: true });
  }

  get secretDialog(): Locator {
    return this.page.getByRole('dialog', { name: /signing secret of /i });
  }

  /**
   * Creates a webhook channel through the form, told about `events` (their labels) on top of
   * the form's defaults, and answers the signing secret the dialog shows once.
   */
  async createWebhook(name: string, url: string, events: string[] = []): Promise<string> {
    await this.page.getByRole('button', { name: 'New channel' }).click();
    const form = this.page.getByRole('dialog', { name: 'New notification channel' });
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Webhook URL').fill(url);
    for (const event of events) await form.getByLabel(event, { exact: true }).check();
    await form.getByRole('button', { name: 'Create channel' }).click();
    await expect(this.secretDialog).toBeVisible();
    const secret = (await this.secretDialog.getByTestId('signing-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    return secret;
  }

  async closeSecret(): Promise<void> {
    await this.secretDialog.getByRole('button', { name: 'I have stored it' }).click();
    await expect(this.secretDialog).toHaveCount(0);
  }

  /** Presses "Send test" on a channel and answers the outcome it then shows. */
  async sendTest(name: string): Promise<Locator> {
    const card = this.channel(name);
    await card.getByRole('button', { name: 'Send test' }).click();
    const outcome = card.locator('.channel-card__outcome .notice');
    await expect(outcome).toBeVisible({ timeout: 20_000 });
    return outcome;
  }

  /** Opens a channel's delivery log; answers its rows. */
  async openLog(name: string): Promise<Locator> {
    const card = this.channel(name);
    await card.getByRole('button', { name: /^Delivery log/ }).click();
    const rows = card.getByRole('table', { name: /^Deliveries of / }).locator('tbody tr');
    await expect(rows.first()).toBeVisible();
    return rows;
  }
}

/** The dashboard's Alerts section. */
export class DashboardAlerts {
  constructor(readonly page: Page) {}

  get section(): Locator {
    return this.page.getByRole('region', { name: /^Alerts/ });
  }

  /** The row of one alert, found by its summary. */
  row(summary: RegExp): Locator {
    return this.section.getByRole('row', { name: summary });
  }
}

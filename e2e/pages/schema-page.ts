import { expect, type Locator, type Page } from '@playwright/test';

/** The console's schema page (/schema/:treeId): steps a user takes, by role and label. */
export class SchemaPage {
  constructor(readonly page: Page) {}

  /** Opens a tree through the picker's "another tree by name" field (it may hold no entries). */
  async open(treeId: string): Promise<void> {
    await this.page.goto('/schema');
    await this.page.getByLabel('Or another tree by name').fill(treeId);
    await this.page.getByRole('button', { name: 'Open', exact: true }).click();
    await expect(
      this.page.getByRole('heading', { level: 1, name: `Schema of ${treeId}` }),
    ).toBeVisible();
    await expect(this.policyEditor).toBeVisible();
  }

  section(title: string): Locator {
    return this.page.getByRole('region', { name: title, exact: true });
  }

  get policyEditor(): Locator {
    return this.page.getByRole('form', { name: 'Policy editor' });
  }

  /** Fills the editor and presses Set policy; an Enforce save then asks first (enforceConfirm). */
  async setPolicy(schema: string, mode: 'Enforce' | 'Audit' = 'Enforce'): Promise<void> {
    const editor = this.policyEditor;
    await editor.getByLabel('JSON Schema').fill(schema);
    await editor.getByRole('radio', { name: new RegExp(`^${mode}`) }).check();
    await editor.getByRole('button', { name: 'Set policy' }).click();
  }

  /** The confirm before a save makes the tree refuse writes: the dry run's numbers in words. */
  get enforceConfirm(): Locator {
    return this.page.getByRole('dialog', { name: /^Enforce this policy on / });
  }

  /** Answers the Enforce confirm and waits for it to close. */
  async answerEnforceConfirm(
    answer: 'Save as Enforce' | 'Save as Audit instead' | 'Run a dry run first',
  ): Promise<void> {
    await this.enforceConfirm.getByRole('button', { name: answer }).click();
    await expect(this.enforceConfirm).toBeHidden();
  }

  get versionForm(): Locator {
    return this.page.getByRole('form', { name: 'Version config editor' });
  }

  /** Fills the version config editor: versions, then one step per [from, to, patch]. */
  async editVersionConfig(current: number, target: number, steps: [number, number, string][]) {
    const form = this.versionForm;
    await form.getByLabel('Current version').fill(String(current));
    await form.getByLabel('Target version').fill(String(target));
    for (const [index, [from, to, patch]] of steps.entries()) {
      await form.getByRole('button', { name: 'Add step' }).click();
      const name = `Step ${index + 1}`;
      await form.getByLabel(`${name} from version`).fill(String(from));
      await form.getByLabel(`${name} to version`).fill(String(to));
      await form.getByLabel(`${name} JSON Patch`).fill(patch);
    }
    await form.getByRole('button', { name: 'Save version config' }).click();
  }

  /**
   * Clicks "Advance and migrate" for a new target: the migration preview dialog opens (nothing
   * runs yet) and is returned once its report is shown.
   */
  async previewAdvanceAndMigrate(newTarget: number): Promise<Locator> {
    const versions = this.section('Versions and migrations');
    await versions.getByLabel('New target version').fill(String(newTarget));
    await versions.getByRole('button', { name: 'Advance and migrate' }).click();
    const dialog = this.page.getByRole('dialog', { name: /and migrate$/ });
    await expect(dialog.getByTestId('migration-preview-summary')).toBeVisible({ timeout: 20_000 });
    return dialog;
  }

  get remediationForm(): Locator {
    return this.page.getByRole('form', { name: 'Remediation' });
  }

  async startComplianceScan(): Promise<void> {
    await this.section('Compliance scans')
      .getByRole('button', { name: 'Start compliance scan' })
      .click();
  }

  get complianceReport(): Locator {
    return this.section('Compliance scans').getByRole('group', { name: 'Compliance report' });
  }

  /** "Compliant against policy version 2, scanned …" or "2 non-compliant against …". */
  get complianceVerdict(): Locator {
    return this.complianceReport.getByTestId('compliance-verdict');
  }
}

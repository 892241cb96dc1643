import { mkdir } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { StoreSchemaMode } from '@store/contract';
import { SchemaPage } from './pages/schema-page';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, signInWithToken, test, type StoreApi } from './support/fixtures';

const NAMED = JSON.stringify({
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' } },
});

async function put(api: StoreApi, treeId: string, key: string, value: unknown) {
  return api.data.putEntry({ treeId, key, valueJson: JSON.stringify(value) });
}

async function valueOf(api: StoreApi, treeId: string, key: string) {
  const { entry } = await api.data.getEntry({ treeId, key });
  return {
    value: JSON.parse(entry?.valueJson ?? 'null') as unknown,
    version: entry?.schemaVersion,
  };
}

async function openSchema(page: Page, token: string, treeId: string): Promise<SchemaPage> {
  await signInWithToken(page, token);
  const schema = new SchemaPage(page);
  await schema.open(treeId);
  return schema;
}

test.describe('schema governance', () => {
  test('a policy set in the console sends a bad write to dead letters, shown there', async ({
    page,
    tenant,
  }, testInfo) => {
    const treeId = 'customers';
    const schema = await openSchema(page, tenant.admin.token, treeId);

    // A syntax error is caught in the browser, with its position, before anything is sent.
    await schema.policyEditor.getByLabel('JSON Schema').fill('{\n  "type": "object",\n}');
    await expect(schema.policyEditor.getByText(/^Line 3, column 1: /)).toBeVisible();
    await expect(schema.policyEditor.getByRole('button', { name: 'Set policy' })).toBeDisabled();

    await schema.setPolicy(NAMED, 'Enforce');
    // No dry run of this draft: the confirm says so and offers one (issue 33).
    await expect(schema.enforceConfirm.getByTestId('enforce-confirm')).toContainText(
      'No dry run of this draft has been run, so how many existing entries would fail it is not known. From now on a write that fails it is refused and sent to dead letters.',
    );
    await expect(
      schema.enforceConfirm.getByRole('button', { name: 'Run a dry run first' }),
    ).toBeVisible();
    await schema.answerEnforceConfirm('Save as Enforce');
    await expect(schema.policyEditor.getByRole('button', { name: 'Set policy' })).toBeFocused();
    await expect(schema.section('Policy').getByText('Enforce', { exact: true })).toBeVisible();
    const stored = await tenant.api.schema.getPolicy({ treeId });
    expect(JSON.parse(stored.policy?.jsonSchema ?? '{}')).toEqual(JSON.parse(NAMED));

    await put(tenant.api, treeId, 'good', { name: 'Ada' });
    const refused = await put(tenant.api, treeId, 'nameless', { age: 3 });
    expect(refused.deadLettered).toBe(true);

    const letters = schema.section('Dead letters');
    await letters.getByRole('button', { name: 'Read again' }).click();
    await expect(letters.getByTestId('dead-letter-count')).toHaveText('1');
    await expect(letters.getByRole('cell', { name: 'nameless', exact: true })).toBeVisible();
    await letters.getByRole('button', { name: 'View dead letter nameless' }).click();
    const dialog = page.getByRole('dialog', { name: 'Dead letter nameless' });
    await expect(dialog.getByText(/name/).first()).toBeVisible();
    await expect(dialog.getByLabel('Value')).toContainText('"age": 3');
    await expectNoSeriousA11yViolations(page, testInfo);
  });

  test('a migration across two versions is previewed in the console, then confirmed, and rewrites the entries', async ({
    page,
    tenant,
  }, testInfo) => {
    const treeId = 'profiles';
    // Entries written while the tree is at version 1.
    await tenant.api.schema.setVersionConfig({
      treeId,
      config: { currentVersion: 1, targetVersion: 1, migrations: [] },
    });
    await put(tenant.api, treeId, 'p1', { name: 'Ada' });
    await put(tenant.api, treeId, 'p2', { name: 'Grace' });
    // No /name to move: the second step fails for it, so the run dead-letters it.
    await put(tenant.api, treeId, 'p3', { nick: 'Hopper' });
    // Every value passes now (none has fullName); Grace's migrated value will not.
    await tenant.api.schema.setPolicy({
      treeId,
      policy: {
        jsonSchema: JSON.stringify({ properties: { fullName: { type: 'string', maxLength: 3 } } }),
        version: 1,
        mode: StoreSchemaMode.ENFORCE,
      },
    });
    expect((await valueOf(tenant.api, treeId, 'p1')).version).toBe(1);

    const schema = await openSchema(page, tenant.admin.token, treeId);
    await expect(page.getByTestId('current-version')).toHaveText('1');
    await schema.editVersionConfig(1, 1, [
      [1, 2, '[{"op": "add", "path": "/active", "value": true}]'],
      [2, 3, '[{"op": "move", "from": "/name", "path": "/fullName"}]'],
    ]);
    const steps = page.getByRole('list', { name: 'Migration steps' });
    await expect(steps.getByText('1 → 2')).toBeVisible();
    await expect(steps.getByText('move /name → /fullName')).toBeVisible();

    const versions = schema.section('Versions and migrations');
    // The click opens a preview of the run; nothing is migrated until it is confirmed.
    const preview = await schema.previewAdvanceAndMigrate(3);
    await expect(preview.getByTestId('migration-preview-summary')).toHaveText(
      'Of 3 entries read: 2 entries would be migrated to version 3, 0 already there, 1 would be dead-lettered.',
    );
    const perStep = preview.getByRole('table', { name: 'Per step' });
    await expect(perStep.getByRole('row', { name: /^1 → 2 3 3 0$/ })).toBeVisible();
    await expect(perStep.getByRole('row', { name: /^2 → 3 3 2 1$/ })).toBeVisible();
    await expect(preview.getByTestId('migration-preview-failures')).toContainText(
      'p3: Migration failed at step 2 → 3',
    );
    await expect(preview.getByLabel('Value before and after').first()).toContainText(
      '"active": true',
    );
    await expect(preview.getByTestId('migration-preview-policy')).toContainText(
      '1 entry would fail the Enforce policy (version 1) once migrated',
    );
    await mkdir('/tmp/shots', { recursive: true });
    await preview.screenshot({ path: '/tmp/shots/migration-preview.png' });
    await preview.getByTestId('migration-preview-failures').scrollIntoViewIfNeeded();
    await preview.screenshot({ path: '/tmp/shots/migration-preview-failures.png' });
    await expectNoSeriousA11yViolations(page, testInfo);
    expect((await valueOf(tenant.api, treeId, 'p1')).version).toBe(1);
    await expect(page.getByTestId('current-version')).toHaveText('1');

    await preview.getByRole('button', { name: 'Migrate 2 entries and dead-letter 1' }).click();
    await expect(preview).toBeHidden();
    await expect(page.getByTestId('current-version')).toHaveText('3', { timeout: 20_000 });
    await expect(page.getByTestId('target-version')).toHaveText('3');

    expect(await valueOf(tenant.api, treeId, 'p1')).toEqual({
      value: { active: true, fullName: 'Ada' },
      version: 3,
    });
    expect((await valueOf(tenant.api, treeId, 'p2')).value).toEqual({
      active: true,
      fullName: 'Grace',
    });
    // The report of the run is the tree's remediation status.
    const status = schema.section('Remediation').getByRole('group', {
      name: 'Latest remediation or migration',
    });
    await expect(status.getByText('1 → 3')).toBeVisible();

    // Lowering the target below current is refused, and the refusal is shown.
    await versions.getByLabel('New target version').fill('2');
    await versions.getByRole('button', { name: 'Advance target' }).click();
    await expect(versions.getByRole('alert')).toContainText('FailedPrecondition');
  });

  test('remediating a tree with mixed values makes its compliance scan clean', async ({
    page,
    tenant,
  }) => {
    const treeId = 'orders';
    await put(tenant.api, treeId, 'o1', { status: 'paid' });
    await put(tenant.api, treeId, 'o2', { total: 5 });
    await put(tenant.api, treeId, 'o3', { total: 7 });
    const statusRequired = JSON.stringify({ type: 'object', required: ['status'] });
    await tenant.api.schema.setPolicy({
      treeId,
      policy: { jsonSchema: statusRequired, version: 1, mode: StoreSchemaMode.AUDIT },
    });

    const schema = await openSchema(page, tenant.admin.token, treeId);
    await schema.startComplianceScan();
    await expect(schema.complianceVerdict).toHaveText(/^2 non-compliant against policy version 1,/);
    const violation = schema.complianceReport.getByRole('link', { name: 'o2' });
    await expect(violation).toHaveAttribute('href', `/trees/${treeId}?prefix=o2`);

    const form = schema.remediationForm;
    await form
      .getByLabel('Transform (JSON Patch)')
      .fill('[{"op": "add", "path": "/status", "value": "unknown"}]');
    await form.getByLabel('Target policy version').fill('2');
    // An Enforce target refuses writes once the run succeeds: that asks first (issue 33).
    await form.getByRole('radio', { name: /^Enforce/ }).check();
    const start = form.getByRole('button', { name: 'Start remediation' });
    await start.click();
    const confirm = page.getByRole('dialog', {
      name: `Remediate ${treeId} and enforce the target policy?`,
    });
    await expect(confirm.getByTestId('enforce-confirm')).toContainText(
      'No dry run of this target schema has been run',
    );
    await confirm.getByRole('button', { name: 'Run a dry run first' }).click();
    await expect(confirm).toBeHidden();
    await expect(start).toBeFocused();
    await expect(form.getByTestId('dry-run-summary')).toHaveText(
      '2 of 3 entries would be refused; 2 × (root) required',
    );
    await start.click();
    await expect(confirm.getByTestId('enforce-confirm')).toContainText(
      '2 of 3 existing entries fail the target schema now; each gets the transform and goes to dead letters if it still fails. Once the run succeeds, a write that fails the schema is refused and sent to dead letters.',
    );
    await expect(confirm.getByRole('button', { name: 'Start as Audit instead' })).toBeVisible();
    await confirm.getByRole('button', { name: 'Start as Enforce' }).click();
    await expect(confirm).toBeHidden();
    const status = schema.section('Remediation').getByRole('group', {
      name: 'Latest remediation or migration',
    });
    await expect(status.getByText('Succeeded')).toBeVisible({ timeout: 20_000 });
    await expect(status).toContainText('Transformed2');

    await schema.startComplianceScan();
    await expect(schema.complianceVerdict).toHaveText(/^Compliant against policy version 2,/);
    expect((await valueOf(tenant.api, treeId, 'o2')).value).toEqual({
      total: 5,
      status: 'unknown',
    });
    // The target became the tree's policy, enforced: a write without a status is refused.
    expect((await put(tenant.api, treeId, 'o4', { total: 1 })).deadLettered).toBe(true);
  });

  test('the schema page, every section shown, has no serious accessibility violation', async ({
    page,
    tenant,
  }, testInfo) => {
    const treeId = 'audited';
    await tenant.api.schema.setPolicy({ treeId, policy: { jsonSchema: NAMED, version: 1 } });
    await tenant.api.schema.setVersionConfig({
      treeId,
      config: {
        currentVersion: 1,
        targetVersion: 2,
        migrations: [{ fromVersion: 1, toVersion: 2, transform: { ops: [] } }],
      },
    });
    await put(tenant.api, treeId, 'ok', { name: 'x' });
    await put(tenant.api, treeId, 'bad', { name: 1 });

    const schema = await openSchema(page, tenant.admin.token, treeId);
    await schema.startComplianceScan();
    await expect(schema.complianceReport).toBeVisible();
    for (const title of [
      'Policy',
      'Versions and migrations',
      'Remediation',
      'Compliance scans',
      'Dead letters',
    ]) {
      await expect(schema.section(title)).toBeVisible();
    }
    await expect(
      schema.section('Dead letters').getByRole('cell', { name: 'bad', exact: true }),
    ).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo);
  });
});

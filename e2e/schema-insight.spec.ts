import type { Page } from '@playwright/test';
import { StoreSchemaMode } from '@store/contract';
import { SchemaInsightPage } from './pages/schema-insight-page';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, issueToken, signInWithToken, test, type StoreApi } from './support/fixtures';

const PERSON = JSON.stringify({
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
});

async function put(api: StoreApi, treeId: string, key: string, value: unknown) {
  return api.data.putEntry({ treeId, key, valueJson: JSON.stringify(value) });
}

async function openSchema(page: Page, token: string, treeId: string) {
  await signInWithToken(page, token);
  const schema = new SchemaInsightPage(page);
  await schema.open(treeId);
  return schema;
}

test.describe('policy dry-run and dead-letter replay (issue 16)', () => {
  test('a dry run shows what the draft would refuse; saved as Enforce, it refuses exactly that', async ({
    page,
    tenant,
  }, testInfo) => {
    const treeId = 'people';
    const values: Array<[string, unknown]> = [
      ['ada', { name: 'Ada', age: 36 }],
      ['bob', { name: 'Bob', age: -1 }],
      ['cy', { age: 3 }],
      ['di', { name: 'Di' }],
      ['ed', { name: 'Ed', age: -4 }],
    ];
    for (const [key, value] of values) await put(tenant.api, treeId, key, value);

    const schema = await openSchema(page, tenant.admin.token, treeId);
    await schema.dryRun(PERSON);
    await expect(schema.dryRunSummary).toHaveText(
      '3 of 5 entries would be refused; 2 × /age minimum, 1 × (root) required',
    );
    // The dry run changed nothing: no policy yet.
    expect((await tenant.api.schema.getPolicy({ treeId })).found).toBe(false);
    await expectNoSeriousA11yViolations(page, testInfo);

    // Saving as Enforce asks first and repeats the dry run's numbers, suggesting Audit (issue 33).
    await schema.setPolicy(PERSON, 'Enforce');
    await expect(schema.enforceConfirm.getByTestId('enforce-confirm')).toContainText(
      '3 of 5 existing entries would fail this schema; from now on a write that fails it is refused and sent to dead letters.',
    );
    await expect(
      schema.enforceConfirm.getByRole('button', { name: 'Save as Audit instead' }),
    ).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo);
    // Nothing is saved while the confirm is open.
    expect((await tenant.api.schema.getPolicy({ treeId })).found).toBe(false);
    await schema.answerEnforceConfirm('Save as Enforce');
    await expect(schema.policyEditor.getByRole('button', { name: 'Set policy' })).toBeFocused();
    await expect(schema.section('Policy').getByText('Enforce', { exact: true })).toBeVisible();
    // The dry run's result stays on the page, current for the saved schema.
    await expect(schema.dryRunSummary).toHaveText(
      '3 of 5 entries would be refused; 2 × /age minimum, 1 × (root) required',
    );
    let refused = 0;
    for (const [key, value] of values) {
      if ((await put(tenant.api, treeId, key, value)).deadLettered) refused += 1;
    }
    expect(refused).toBe(3);
  });

  test('a dry run of a draft with format "email" shows the value that is not an address', async ({
    page,
    tenant,
  }) => {
    const treeId = 'contacts';
    await put(tenant.api, treeId, 'ada', { contact: 'ada@example.com' });
    await put(tenant.api, treeId, 'bad', { contact: 'not-an-email' });
    const schema = await openSchema(page, tenant.admin.token, treeId);
    await schema.dryRun(
      JSON.stringify({ type: 'object', properties: { contact: { format: 'email' } } }),
    );
    await expect(schema.dryRunSummary).toHaveText(
      '1 of 2 entries would be refused; 1 × /contact format',
    );
    await schema.policyEditor.getByText('Sample of failing keys (1)').click();
    await expect(
      schema.policyEditor.getByText('bad: /contact: must match format "email"'),
    ).toBeVisible();
  });

  test('an operator fixes a dead letter with live validation and replays it into the tree', async ({
    page,
    tenant,
  }, testInfo) => {
    const treeId = 'inbox';
    await tenant.api.schema.setPolicy({
      treeId,
      policy: { jsonSchema: PERSON, mode: StoreSchemaMode.ENFORCE, version: 1 },
    });
    expect((await put(tenant.api, treeId, 'nameless', { age: 3 })).deadLettered).toBe(true);

    const operator = issueToken(tenant.name, ['operator']);
    const schema = await openSchema(page, operator.token, treeId);
    const dialog = await schema.openReplay('nameless');
    const verdict = dialog.getByTestId('replay-validation');
    await expect(verdict).toContainText("must have required property 'name'");
    await schema.editValue(dialog, { name: 'Nia', age: -3 });
    await expect(verdict).toContainText('/age: must be >= 0 (minimum)');
    await schema.editValue(dialog, { name: 'Nia', age: 3 });
    await expect(verdict).toContainText('Passes the policy v1 (Enforce)');
    await expectNoSeriousA11yViolations(page, testInfo);
    await schema.replay(dialog);
    await expect(dialog).toBeHidden();

    const { entry } = await tenant.api.data.getEntry({ treeId, key: 'nameless' });
    expect(JSON.parse(entry?.valueJson ?? 'null')).toEqual({ name: 'Nia', age: 3 });
    await expect(schema.replaySection.getByText('No dead letters to fix')).toBeVisible();
    // Resolved letters leave the spec's count (they are kept for audit, shown on request).
    await expect(schema.section('Dead letters').getByTestId('dead-letter-count')).toHaveText('0');
    await schema.showReplayed();
    await expect(
      schema.replaySection.getByRole('cell', { name: /^Replayed by \S+/ }),
    ).toBeVisible();
  });

  test('an operator discards one dead letter, then all of them; both sections count the same', async ({
    page,
    tenant,
  }, testInfo) => {
    const treeId = 'outbox';
    await tenant.api.schema.setPolicy({
      treeId,
      policy: { jsonSchema: PERSON, mode: StoreSchemaMode.ENFORCE, version: 1 },
    });
    for (const key of ['m1', 'm2', 'm3', 'm4']) {
      expect((await put(tenant.api, treeId, key, { age: 1 })).deadLettered).toBe(true);
    }

    const operator = issueToken(tenant.name, ['operator']);
    const schema = await openSchema(page, operator.token, treeId);
    await expect(schema.deadLettersSection.getByTestId('dead-letter-count')).toHaveText('4');
    expect(await schema.pendingCounts()).toEqual({ deadLetters: '4', replay: '4' });

    const one = await schema.askDiscard('m2');
    await expect(one).toContainText(`of tree ${treeId} in tenant ${tenant.name}`);
    await one.getByLabel('Note (optional)').fill('a test write');
    await one.screenshot({ path: '/tmp/shots/discard-one-dialog.png' });
    await schema.confirmDiscard(one);
    await expect(schema.deadLettersSection.getByTestId('dead-letter-count')).toHaveText('3');
    await expect(schema.replaySection.getByTestId('replay-pending-count')).toHaveText('3');
    await expect(
      schema.deadLettersSection.getByRole('cell', { name: 'm2', exact: true }),
    ).toHaveCount(0);
    await expect(schema.replaySection.getByRole('cell', { name: 'm2', exact: true })).toHaveCount(
      0,
    );
    await schema.deadLettersSection.screenshot({ path: '/tmp/shots/discard-after-one.png' });

    const all = await schema.askDiscardAll(3);
    await expect(all).toContainText('All 3 pending dead letters');
    await expectNoSeriousA11yViolations(page, testInfo);
    await all.screenshot({ path: '/tmp/shots/discard-all-dialog.png' });
    await schema.confirmDiscard(all);
    await expect(schema.deadLettersSection.getByTestId('dead-letter-count')).toHaveText('0');
    await expect(schema.replaySection.getByTestId('replay-pending-count')).toHaveText('0');
    await expect(schema.replaySection.getByText('No dead letters to fix')).toBeVisible();
    await page.screenshot({ path: '/tmp/shots/discard-all-done.png', fullPage: true });

    // The server agrees (the audit records are checked by server/test/dead-letter-discard.test.ts).
    expect((await tenant.api.schema.countDeadLetters({ treeId })).count).toBe(0);
  });

  test('a discard confirmed before one letter arrived and another was resolved is refused; the refreshed confirm discards what is pending now', async ({
    page,
    tenant,
  }) => {
    const treeId = 'inbox';
    await tenant.api.schema.setPolicy({
      treeId,
      policy: { jsonSchema: PERSON, mode: StoreSchemaMode.ENFORCE, version: 1 },
    });
    for (const key of ['n1', 'n2']) {
      expect((await put(tenant.api, treeId, key, { age: 1 })).deadLettered).toBe(true);
    }
    const operator = issueToken(tenant.name, ['operator']);
    const schema = await openSchema(page, operator.token, treeId);
    const all = await schema.askDiscardAll(2);
    const confirm = all.getByRole('button', { name: 'Discard 2 dead letters' });
    await expect(confirm).toBeEnabled();

    // Behind the confirm: n3 is refused (arrives), n1 is fixed and replayed (resolved). Still 2.
    expect((await put(tenant.api, treeId, 'n3', { age: 3 })).deadLettered).toBe(true);
    const { deadLetters } = await tenant.api.schemaInsight.listDeadLetters({ treeId });
    const n1 = deadLetters.find((letter) => letter.entry?.key === 'n1');
    await tenant.api.schemaInsight.replayDeadLetter({
      treeId,
      deadLetterId: n1?.deadLetterId ?? 0n,
      valueJson: JSON.stringify({ name: 'fixed' }),
    });
    expect((await tenant.api.schema.countDeadLetters({ treeId })).count).toBe(2);

    await confirm.click();
    await expect(all.getByText(/changed since they were counted/)).toBeVisible();
    const kept = await tenant.api.schemaInsight.listDeadLetters({ treeId, includeDiscarded: true });
    expect(kept.deadLetters.filter((letter) => letter.discardedAt)).toEqual([]);

    await schema.confirmDiscard(all);
    await expect(schema.deadLettersSection.getByTestId('dead-letter-count')).toHaveText('0');
    expect((await tenant.api.schema.countDeadLetters({ treeId })).count).toBe(0);
  });
});

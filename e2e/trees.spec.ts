import { StoreSchemaMode } from '@store/contract';
import { expect, issueToken, signInWithToken, test } from './support/fixtures';
import { expectNoSeriousA11yViolations } from './support/axe';

const TREE = 'orders';

test.describe('trees and entries', () => {
  test('lists trees, pages through entries, searches by prefix and shows a value as JSON', async ({
    page,
    tenant,
  }, testInfo) => {
    // 30 "item-" keys and one "other-" key: page one holds 25 (the console's page size).
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        tenant.api.data.putEntry({
          treeId: TREE,
          key: `item-${String(i).padStart(2, '0')}`,
          valueJson: `{"n":${i}}`,
        }),
      ),
    );
    await tenant.api.data.putEntry({
      treeId: TREE,
      key: 'other-1',
      valueJson: '{"name":"other","tags":["a","b"],"count":7}',
    });

    await signInWithToken(page, tenant.admin.token);
    await page
      .getByRole('navigation', { name: /main/i })
      .getByRole('link', { name: 'Trees' })
      .click();
    // The dashboard names the tree too (schedules, proof): wait for the Trees page itself.
    await expect(page.getByRole('heading', { level: 1, name: 'Trees' })).toBeVisible();
    const treeRow = page.getByRole('row', { name: new RegExp(`^${TREE}\\b`) });
    await expect(treeRow).toContainText('31');
    await expectNoSeriousA11yViolations(page, testInfo);

    await treeRow.getByRole('link', { name: TREE }).click();
    await expect(page).toHaveURL(new RegExp(`/trees/${TREE}$`));
    await expect(page.getByRole('row', { name: /item-00/ })).toBeVisible();
    await expect(page.getByRole('row', { name: /item-24/ })).toBeVisible();
    await expect(page.getByRole('row', { name: /item-25/ })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page, testInfo);

    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(page.getByRole('row', { name: /item-29/ })).toBeVisible();
    await expect(page.getByRole('row', { name: /other-1/ })).toBeVisible();
    await expect(page.getByRole('row', { name: /item-00/ })).toHaveCount(0);
    await expect(page.getByText('Page 2')).toBeVisible();
    // The page is in the URL: a reload shows the same page.
    await page.reload();
    await expect(page.getByRole('row', { name: /item-29/ })).toBeVisible();
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect(page.getByRole('row', { name: /item-00/ })).toBeVisible();

    await page.getByLabel('Key prefix').fill('other');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/prefix=other/);
    await expect(page.getByRole('row')).toHaveCount(2); // header + other-1

    await page.getByRole('button', { name: 'View other-1' }).click();
    const value = page.getByRole('dialog').getByLabel('Value of other-1');
    // Formatted, keys in the server's canonical (sorted) order.
    await expect(value).toHaveText(
      '{\n  "count": 7,\n  "name": "other",\n  "tags": [\n    "a",\n    "b"\n  ]\n}',
    );
    await expectNoSeriousA11yViolations(page, testInfo);
  });

  test('puts and deletes an entry from the console', async ({ page, tenant }) => {
    await tenant.api.data.putEntry({ treeId: TREE, key: 'seed', valueJson: '{}' });
    await signInWithToken(page, tenant.admin.token);
    await page.goto(`/trees/${TREE}`);
    await expect(page.getByRole('row', { name: /seed/ })).toBeVisible();

    await page.getByRole('button', { name: 'Put entry' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Key').fill('customer/42');
    await dialog.getByLabel('Value (JSON)').fill('{"name": "Ada",');
    await expect(dialog.getByText(/JSON|Unexpected|Expected/).first()).toBeVisible();
    await expect(dialog.getByLabel('Value (JSON)')).toHaveAttribute('aria-invalid', 'true');
    await dialog.getByLabel('Value (JSON)').fill('{"name": "Ada", "visits": 3}');
    await expect(dialog.getByText('Valid JSON.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Put entry' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('row', { name: /customer\/42/ })).toBeVisible();
    const written = await tenant.api.data.getEntry({ treeId: TREE, key: 'customer/42' });
    expect(written.entry?.valueJson).toBe('{"name":"Ada","visits":3}');

    await page.getByRole('button', { name: 'Delete customer/42' }).click();
    const confirm = page.getByRole('dialog');
    await expect(confirm).toContainText(
      `Delete the entry customer/42 from tree ${TREE} in tenant ${tenant.name}?`,
    );
    await confirm.getByRole('button', { name: 'Delete entry' }).click();
    await expect(page.getByRole('row', { name: /customer\/42/ })).toHaveCount(0);
    const gone = await tenant.api.data.getEntry({ treeId: TREE, key: 'customer/42' });
    expect(gone.found).toBe(false);
  });

  test('Put entry checks the value against the ENFORCE policy first and does not send what it would refuse', async ({
    page,
    tenant,
  }, testInfo) => {
    await tenant.api.data.putEntry({ treeId: TREE, key: 'good', valueJson: '{"n":1}' });
    await tenant.api.schema.setPolicy({
      treeId: TREE,
      policy: {
        jsonSchema: JSON.stringify({
          type: 'object',
          required: ['n'],
          properties: { n: { type: 'integer' } },
        }),
        mode: StoreSchemaMode.ENFORCE,
        version: 1,
      },
    });

    await signInWithToken(page, tenant.admin.token);
    await page.goto(`/trees/${TREE}`);
    await expect(page.getByText('ENFORCE')).toBeVisible();
    await page.getByRole('button', { name: 'Put entry' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Key').fill('bad');
    await dialog.getByLabel('Value (JSON)').fill('{"n": "not a number"}');
    // The server's own check (the write guard's verdict), shown as the value is typed.
    const verdict = dialog.getByTestId('put-entry-policy');
    await expect(verdict).toContainText(
      '1 error against the policy v1 (Enforce) — the write guard would refuse it',
    );
    await expect(verdict.getByRole('listitem').first()).toContainText(/integer/i);
    await dialog.getByRole('button', { name: 'Put entry' }).click();
    await expect(dialog.getByRole('alert')).toContainText(
      'Not sent: the policy v1 (Enforce) would refuse this value',
    );
    await page.screenshot({ path: testInfo.outputPath('put-entry-refused-before-sending.png') });
    await page.screenshot({ path: '/tmp/shots/i33-small-put-entry-policy-wide.png' });
    expect((await tenant.api.data.getEntry({ treeId: TREE, key: 'bad' })).found).toBe(false);
    expect((await tenant.api.schema.countDeadLetters({ treeId: TREE })).count).toBe(0);

    // Fixed: it passes the policy and is written.
    await dialog.getByLabel('Value (JSON)').fill('{"n": 7}');
    await expect(verdict).toContainText('Passes the policy v1 (Enforce)');
    await dialog.getByRole('button', { name: 'Put entry' }).click();
    await expect(dialog).toBeHidden();
    expect((await tenant.api.data.getEntry({ treeId: TREE, key: 'bad' })).found).toBe(true);
  });

  test('a viewer sees the write actions disabled with the reason', async ({ page, tenant }) => {
    await tenant.api.data.putEntry({ treeId: TREE, key: 'seed', valueJson: '{}' });
    const viewer = issueToken(tenant.name, ['viewer']);
    await signInWithToken(page, viewer.token);
    await page.goto(`/trees/${TREE}`);
    await expect(page.getByRole('row', { name: /seed/ })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Put entry' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Delete seed' })).toBeDisabled();
    await expect(
      page
        .getByText(`Needs the operator role (you are a viewer in tenant ${tenant.name}).`)
        .first(),
    ).toBeVisible();
  });
});

import { createClient } from '@connectrpc/connect';
import { IdentityService, StoreSchemaMode } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startSchemaHarness, type SchemaHarness } from './support/schema-harness.js';

// A tenant admin's policy pattern used to run on V8's backtracking RegExp on the event loop:
// "^(a+)+$" against 26 a's and a '!' took seconds, and every other tenant's calls waited behind
// it (each two more characters quadruple it; 28 here). Timings here are relative (the same calls without the hostile input, in the same run), so a
// busy machine slows both sides alike.
const HOSTILE = JSON.stringify({
  type: 'object',
  properties: { name: { type: 'string', pattern: '^(a+)+$' } },
});
const EVIL_VALUE = { name: `${'a'.repeat(28)}!` };
const RATIO_LIMIT = 20;

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run().catch(() => undefined);
  return performance.now() - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

describe('a policy pattern with nested quantifiers (ReDoS)', () => {
  let h: SchemaHarness;
  beforeAll(async () => {
    h = await startSchemaHarness('sqlite');
    await h.schema.setPolicy(
      'hostile',
      { jsonSchema: HOSTILE, mode: StoreSchemaMode.ENFORCE, version: 1 },
      h.admin,
    );
  });
  afterAll(async () => {
    await h?.t.dispose();
  });

  it('a put of 26+ characters against "^(a+)+$" in ENFORCE costs about what a plain put costs', async () => {
    // Warm-up: the first calls compile the schema and open the connection.
    await h.put('hostile', 'warm', { name: 'aaa' }).catch(() => undefined);
    const plain: number[] = [];
    const hostile: number[] = [];
    for (let i = 0; i < 3; i++) {
      plain.push(await timed(() => h.put('hostile', `plain-${i}`, { name: 'a'.repeat(29) })));
      hostile.push(await timed(() => h.put('hostile', `evil-${i}`, EVIL_VALUE)));
    }
    const ratio = median(hostile) / median(plain);
    expect(ratio, `hostile ${median(hostile)} ms vs plain ${median(plain)} ms`).toBeLessThan(
      RATIO_LIMIT,
    );
  }, 120_000);

  it("another tenant's WhoAmI is not delayed behind those puts", async () => {
    const identity = createClient(IdentityService, h.t.grpcWeb);
    const whoAmI = () => identity.whoAmI({}, as(h.tokens.other));
    await whoAmI();
    const alone: number[] = [];
    for (let i = 0; i < 3; i++) alone.push(await timed(whoAmI));
    const behind: number[] = [];
    for (let i = 0; i < 3; i++) {
      // The hostile put is sent first; the other tenant's call follows while it is being served.
      const put = h.put('hostile', `evil-b-${i}`, EVIL_VALUE).catch(() => undefined);
      behind.push(await timed(whoAmI));
      await put;
    }
    const ratio = median(behind) / median(alone);
    expect(ratio, `WhoAmI ${median(behind)} ms behind vs ${median(alone)} ms alone`).toBeLessThan(
      RATIO_LIMIT,
    );
  }, 120_000);
});

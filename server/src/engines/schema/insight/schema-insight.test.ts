import { describe, expect, it } from 'vitest';
import { finished, useRunners } from '../../../../test/operations/runner-fixture.js';
import { seedTree, testControl } from '../../../../test/support/schema-fixtures.js';
import { DIALECTS } from '../../../../test/support/test-storage.js';
import { listLiveEntries } from '../../../storage/data/tree-store.js';
import { TreeDataEngine } from '../../data/tree-data-engine.js';
import { inlineControl } from '../records.js';
import { SchemaEngine } from '../schema-engine.js';
import { scanTree } from '../schema-runs.js';
import type { DeadLetterReplayReport, ReplayCheckpoint } from './dead-letter-replay.js';
import { dryRunPolicy, type PolicyDryRunReport } from './dry-run.js';
import { SchemaInsight } from './schema-insight.js';

const T = 'acme';
const START = { tenant: T, createdBy: 'tester' };

const DRAFT = JSON.stringify({
  type: 'object',
  required: ['email'],
  properties: {
    email: { type: 'string' },
    age: { type: 'integer', minimum: 0 },
    tags: { type: 'array', items: { type: 'string' } },
  },
});

/** 90 entries: every 7th lacks email, every 11th has a negative age, every 13th a numeric tag. */
function seedValues() {
  return Array.from({ length: 90 }, (_, i) => {
    const value: Record<string, unknown> = { email: `u${i}@example.com`, age: 30, tags: ['a'] };
    if (i % 7 === 0) delete value['email'];
    if (i % 11 === 0) value['age'] = -1;
    if (i % 13 === 0) value['tags'] = ['a', 1, 2];
    return [`k${String(i).padStart(3, '0')}`, value, 0] as const;
  });
}

describe.each(DIALECTS)('schema insight on %s', (dialect) => {
  const harness = useRunners(dialect);

  async function setUp() {
    const storage = await harness.storage();
    const engine = new SchemaEngine({ storage, pageSize: 8 });
    const treeData = new TreeDataEngine({ storage, writeGuard: engine.writeGuard });
    const runner = await harness.runner();
    const insight = new SchemaInsight(engine, runner);
    insight.register();
    runner.start();
    return { storage, engine, treeData, runner, insight };
  }

  it('a dry-run counts exactly the entries ENFORCE then refuses, grouped by keyword and path', async () => {
    const { engine, treeData, runner, insight } = await setUp();
    await seedTree(engine.storage, T, 'people', seedValues());
    const op = await insight.startPolicyDryRun(START, 'people', {
      jsonSchema: DRAFT,
      sampleLimit: 100,
    });
    const done = await finished(runner, T, op.id);
    expect(done.state).toBe('SUCCEEDED');
    const report = done.result as PolicyDryRunReport;
    expect(report.scanned).toBe(90);
    expect(report.groups).toEqual([
      { keyword: 'required', instancePath: '', entryCount: 13, exampleMessage: expect.any(String) },
      {
        keyword: 'minimum',
        instancePath: '/age',
        entryCount: 9,
        exampleMessage: expect.any(String),
      },
      {
        keyword: 'type',
        instancePath: '/tags/*',
        entryCount: 7,
        exampleMessage: expect.any(String),
      },
    ]);
    expect(done.progress).toMatchObject({ done: 90, total: 90, unit: 'entries' });

    // Now make it the policy and write every value again: ENFORCE refuses exactly those keys.
    await engine.setPolicy(T, 'people', { jsonSchema: DRAFT, mode: 'ENFORCE', version: 1 }, 'x');
    const refused: string[] = [];
    for (const [key, value] of seedValues()) {
      const put = await treeData.putEntry(T, 'people', key, JSON.stringify(value));
      if (put.deadLettered) refused.push(key);
    }
    expect(report.failing).toBe(refused.length);
    expect(report.samples.map((s) => s.key)).toEqual(refused);
    expect(await engine.countDeadLetters(T, 'people')).toBe(refused.length);
    const scan = await scanTree(engine, { tenant: T, treeName: 'people' }, inlineControl('x'));
    expect(scan.nonCompliant).toBe(report.failing);
  });

  it('a dry-run changes nothing, refuses a schema that does not compile, and stops when cancelled', async () => {
    const { engine, insight } = await setUp();
    await seedTree(engine.storage, T, 'quiet', seedValues());
    const before = await listLiveEntries(engine.storage, T, 'quiet', { limit: 100 });
    await expect(
      insight.startPolicyDryRun(START, 'quiet', { jsonSchema: '{"type": 3}', sampleLimit: 0 }),
    ).rejects.toMatchObject({ code: 'invalid_argument', field: 'json_schema' });
    await expect(
      dryRunPolicy(
        engine,
        { tenant: T, treeName: 'quiet' },
        { jsonSchema: DRAFT, sampleLimit: 5 },
        testControl({ cancelAt: 3 }),
      ),
    ).rejects.toMatchObject({ code: 'cancelled' });
    const full = await dryRunPolicy(
      engine,
      { tenant: T, treeName: 'quiet' },
      { jsonSchema: DRAFT, sampleLimit: 5 },
      inlineControl('x'),
    );
    expect(full.samples).toHaveLength(5);
    expect(full.samples[0]).toEqual({
      key: 'k000',
      reasons: [
        "(root): must have required property 'email'",
        '/age: must be >= 0',
        '/tags/1: must be string',
        '/tags/2: must be string',
      ],
    });
    expect(await listLiveEntries(engine.storage, T, 'quiet', { limit: 100 })).toEqual(before);
    expect(await engine.getPolicy(T, 'quiet')).toBeUndefined();
  });

  it('replay writes exactly the fixed letters, marks them with who and when, and leaves refused ones pending', async () => {
    const { engine, treeData, runner, insight } = await setUp();
    const strict = JSON.stringify({
      type: 'object',
      required: ['email'],
      properties: { age: { minimum: 0 } },
    });
    await engine.setPolicy(T, 'inbox', { jsonSchema: strict, mode: 'ENFORCE', version: 1 }, 'x');
    const before = await treeData.putEntry(T, 'inbox', 'ok', '{"email":"a@b","age":1}');
    for (const [key, value] of [
      ['a', '{"email":"a@b","age":-1}'],
      ['b', '{"email":"b@b","age":-2}'],
      ['c', '{"age":3}'],
    ] as const) {
      expect((await treeData.putEntry(T, 'inbox', key, value)).deadLettered).toBe(true);
    }
    const letters = await insight.listDeadLetters(T, 'inbox', {
      pageSize: 0,
      pageToken: '',
      filter: {},
      includeReplayed: false,
    });
    const [a, b, c] = letters.deadLetters;
    expect(letters.deadLetters.map((l) => l.key)).toEqual(['a', 'b', 'c']);

    // Fix a by editing its value: written with a new sequence, the letter kept as WRITTEN.
    const fixed = await insight.replayer.replayOne(
      { tenant: T, treeName: 'inbox', replayedBy: 'operator-1' },
      a!.id,
      '{"age": 5, "email": "a@b"}',
    );
    expect(fixed).toMatchObject({
      replayOutcome: 'WRITTEN',
      replayedBy: 'operator-1',
      replayedValueJson: '{"age":5,"email":"a@b"}',
    });
    expect(fixed.replayedAt).toBeGreaterThan(0);
    expect(fixed.replaySequence).toBeGreaterThan(before.sequence);
    expect(await treeData.getEntry(T, 'inbox', 'a')).toMatchObject({
      valueJson: '{"age":5,"email":"a@b"}',
      sequence: fixed.replaySequence,
    });
    await expect(
      insight.replayer.replayOne({ tenant: T, treeName: 'inbox', replayedBy: 'x' }, a!.id),
    ).rejects.toMatchObject({ code: 'failed_precondition' });

    // b unedited is refused again: pending, with the reason, and no new letter.
    const again = await insight.replayer.replayOne(
      { tenant: T, treeName: 'inbox', replayedBy: 'operator-1' },
      b!.id,
    );
    expect(again).toMatchObject({ replayOutcome: 'REFUSED', replaySequence: null });
    expect(again.replayErrors).toEqual(['/age: must be >= 0']);
    expect(await treeData.getEntry(T, 'inbox', 'b')).toBeUndefined();
    // a is resolved (kept for audit, no longer counted); b is still pending; no new letter.
    expect(await engine.countDeadLetters(T, 'inbox')).toBe(2);

    // After a policy change a bulk replay writes b and refuses c again, saying why.
    const relaxed = JSON.stringify({ type: 'object', required: ['email'] });
    await engine.setPolicy(T, 'inbox', { jsonSchema: relaxed, mode: 'ENFORCE', version: 2 }, 'x');
    const op = await insight.startDeadLetterReplay(
      { ...START, createdBy: 'operator-2' },
      'inbox',
      {},
    );
    const done = await finished(runner, T, op.id);
    expect(done.state).toBe('SUCCEEDED');
    const report = done.result as DeadLetterReplayReport;
    expect(report).toMatchObject({ considered: 2, written: 1, refused: 1, itemsTruncated: false });
    expect(report.items).toEqual([
      {
        deadLetterId: b!.id,
        key: 'b',
        outcome: 'WRITTEN',
        sequence: expect.any(Number),
        errors: [],
      },
      {
        deadLetterId: c!.id,
        key: 'c',
        outcome: 'REFUSED',
        sequence: 0,
        errors: ["(root): must have required property 'email'"],
      },
    ]);
    const live = await listLiveEntries(engine.storage, T, 'inbox', { limit: 10 });
    expect(live.map((e) => [e.key, e.valueJson])).toEqual([
      ['a', '{"age":5,"email":"a@b"}'],
      ['b', '{"age":-2,"email":"b@b"}'],
      ['ok', '{"age":1,"email":"a@b"}'],
    ]);
    const all = await insight.listDeadLetters(T, 'inbox', {
      pageSize: 2,
      pageToken: '',
      filter: {},
      includeReplayed: true,
    });
    expect(all.deadLetters.map((l) => [l.key, l.replayOutcome, l.replayedBy])).toEqual([
      ['a', 'WRITTEN', 'operator-1'],
      ['b', 'WRITTEN', 'operator-2'],
    ]);
    const rest = await insight.listDeadLetters(T, 'inbox', {
      pageSize: 2,
      pageToken: all.nextPageToken,
      filter: {},
      includeReplayed: true,
    });
    expect(rest.deadLetters.map((l) => [l.key, l.replayOutcome])).toEqual([['c', 'REFUSED']]);
    expect(rest.nextPageToken).toBe('');
    const pending = await insight.listDeadLetters(T, 'inbox', {
      pageSize: 0,
      pageToken: '',
      filter: {},
      includeReplayed: false,
    });
    expect(pending.deadLetters.map((l) => l.key)).toEqual(['c']);
    // The spec's RPCs see the pending letter only; ListTrees counts it alone.
    const streamed = [];
    for await (const letter of engine.streamDeadLetters(T, 'inbox')) streamed.push(letter.key);
    expect(streamed).toEqual(['c']);
    expect(await engine.countDeadLetters(T, 'inbox')).toBe(1);
    expect((await engine.treeAnnotations(T, ['inbox'])).get('inbox')?.deadLetterCount).toBe(1);
  });

  it('a bulk replay takes only the filtered letters, and validation answers as the guard would', async () => {
    const { engine, treeData, runner, insight } = await setUp();
    const schema = JSON.stringify({ properties: { n: { type: 'integer' } } });
    await engine.setPolicy(T, 'f', { jsonSchema: schema, mode: 'ENFORCE', version: 1 }, 'x');
    for (const key of ['x/1', 'x/2', 'y/1']) {
      await treeData.putEntry(T, 'f', key, '{"n":"one"}');
    }
    expect(await insight.validateValue(T, 'f', '{"n":"one"}')).toMatchObject({
      accepted: false,
      violations: [{ path: '/n', keyword: 'type', message: 'must be integer' }],
    });
    expect(await insight.validateValue(T, 'f', '{"n":1}')).toMatchObject({ accepted: true });
    await expect(insight.validateValue(T, 'f', '{')).rejects.toMatchObject({
      code: 'invalid_argument',
      field: 'value_json',
    });
    await engine.setPolicy(T, 'f', { jsonSchema: '{}', mode: 'ENFORCE', version: 2 }, 'x');
    const op = await insight.startDeadLetterReplay(START, 'f', { keyPrefix: 'x/' });
    const report = (await finished(runner, T, op.id)).result as DeadLetterReplayReport;
    expect(report).toMatchObject({ considered: 2, written: 2, refused: 0 });
    expect(report.items.map((i) => i.key)).toEqual(['x/1', 'x/2']);
    await expect(
      insight.startDeadLetterReplay(START, 'f', { reasons: ['NOPE'] }),
    ).rejects.toMatchObject({ code: 'invalid_argument', field: 'filter.reasons[0]' });
  });

  it('two replays of one letter at once write it once; the other is FailedPrecondition', async () => {
    const { engine, treeData, insight } = await setUp();
    await engine.setPolicy(T, 'race', { jsonSchema: '{"type":"string"}', version: 1 }, 'x');
    await treeData.putEntry(T, 'race', 'k', '1');
    const [letter] = (
      await insight.listDeadLetters(T, 'race', {
        pageSize: 0,
        pageToken: '',
        filter: {},
        includeReplayed: false,
      })
    ).deadLetters;
    const replay = (who: string) =>
      insight.replayer.replayOne(
        { tenant: T, treeName: 'race', replayedBy: who },
        letter!.id,
        '"one"',
      );
    const outcomes = await Promise.allSettled([replay('first'), replay('second')]);
    const written = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(written).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect((refused[0] as PromiseRejectedResult).reason).toMatchObject({
      code: 'failed_precondition',
    });
    const entry = await treeData.getEntry(T, 'race', 'k');
    const winner = (written[0] as PromiseFulfilledResult<{ replaySequence: number | null }>).value;
    expect(entry).toMatchObject({ valueJson: '"one"', sequence: winner.replaySequence });
    // One write, so one sequence: the tree's first.
    expect(entry?.sequence).toBe(1);
  });

  it('a bulk replay interrupted midway resumes from its checkpoint and replays each letter once', async () => {
    const { engine, treeData, insight } = await setUp();
    await engine.setPolicy(T, 'big', { jsonSchema: '{"type":"string"}', version: 1 }, 'x');
    for (let i = 0; i < 30; i += 1) {
      await treeData.putEntry(T, 'big', `k${String(i).padStart(2, '0')}`, String(i));
    }
    // Numbers below 10 stay refused; the rest pass the relaxed policy.
    const relaxed = JSON.stringify({ anyOf: [{ type: 'string' }, { minimum: 10 }] });
    await engine.setPolicy(T, 'big', { jsonSchema: relaxed, version: 2 }, 'x');
    const target = { tenant: T, treeName: 'big' };
    const first = testControl<ReplayCheckpoint>({ cancelAt: 3 });
    await expect(insight.replayer.replayAll(target, {}, first)).rejects.toMatchObject({
      code: 'cancelled',
    });
    expect(first.checkpoints).toHaveLength(2);
    const resumed = testControl<ReplayCheckpoint>({ checkpoint: first.checkpoints.at(-1)! });
    const report = await insight.replayer.replayAll(target, {}, resumed);
    expect(report).toMatchObject({ considered: 30, written: 20, refused: 10 });
    expect(new Set(report.items.map((i) => i.deadLetterId)).size).toBe(30);
    const live = await listLiveEntries(engine.storage, T, 'big', { limit: 100 });
    expect(live.map((e) => e.key)).toEqual(
      Array.from({ length: 20 }, (_, i) => `k${String(i + 10).padStart(2, '0')}`),
    );
  });

  it('letters are scoped to their tenant: another tenant neither lists, replays nor bulk-replays them', async () => {
    const { engine, treeData, runner, insight } = await setUp();
    await engine.setPolicy(T, 'shared', { jsonSchema: '{"type":"string"}', version: 1 }, 'x');
    await treeData.putEntry(T, 'shared', 'k', '1');
    const [letter] = (
      await insight.listDeadLetters(T, 'shared', {
        pageSize: 0,
        pageToken: '',
        filter: {},
        includeReplayed: true,
      })
    ).deadLetters;
    const other = await insight.listDeadLetters('other', 'shared', {
      pageSize: 0,
      pageToken: '',
      filter: {},
      includeReplayed: true,
    });
    expect(other.deadLetters).toEqual([]);
    await expect(
      insight.replayer.replayOne(
        { tenant: 'other', treeName: 'shared', replayedBy: 'x' },
        letter!.id,
      ),
    ).rejects.toMatchObject({ code: 'not_found' });
    const op = await insight.startDeadLetterReplay({ ...START, tenant: 'other' }, 'shared', {
      ids: [letter!.id],
    });
    expect((await finished(runner, 'other', op.id)).result).toMatchObject({ considered: 0 });
    expect(await runner.get(T, op.id)).toBeUndefined();
    const dry = await insight.startPolicyDryRun({ ...START, tenant: 'other' }, 'shared', {
      jsonSchema: '{"type":"object"}',
      sampleLimit: 0,
    });
    expect((await finished(runner, 'other', dry.id)).result).toMatchObject({ scanned: 0 });
  });
});

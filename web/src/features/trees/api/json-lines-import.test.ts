import { Code, ConnectError } from '@connectrpc/connect';
import { describe, expect, it } from 'vitest';
import { parseImportLine, utf8Length } from '../utils/json-lines';
import { MAX_BATCH_ENTRIES, importJsonLines, type PutEntriesCall } from './json-lines-import';

const line = (key: string, value: unknown) => JSON.stringify({ key, value });

/** A PutEntries stand-in with the server's per-entry rules that matter here. */
function fakeServer(options: { refuseKey?: string; deadLetterKey?: string } = {}) {
  const calls: number[] = [];
  let sequence = 0n;
  let inFlight = 0;
  let maxInFlight = 0;
  const putEntries: PutEntriesCall = async (entries) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 1));
    inFlight -= 1;
    calls.push(entries.length);
    const refused = entries.findIndex((e) => e.key === options.refuseKey);
    if (refused >= 0) {
      throw new ConnectError(`entries[${refused}].key: must not contain NUL`, Code.InvalidArgument);
    }
    return entries.map((e) =>
      e.key === options.deadLetterKey
        ? { sequence: 0n, deadLettered: true, deadLetterReason: 'SCHEMA_VIOLATION' }
        : { sequence: (sequence += 1n), deadLettered: false },
    );
  };
  return { putEntries, calls, maxInFlight: () => maxInFlight };
}

async function run(
  text: string | Blob,
  server = fakeServer(),
  signal = new AbortController().signal,
) {
  const progress: number[] = [];
  const report = await importJsonLines({
    file: typeof text === 'string' ? new Blob([text]) : text,
    putEntries: server.putEntries,
    signal,
    onProgress: (p) => progress.push(p.bytesDone),
  });
  return { report, progress };
}

describe('parseImportLine', () => {
  it('takes {"key", "value"} objects, skips blank lines, refuses the rest with a reason', () => {
    expect(parseImportLine('{"key":"a","value":{"x":1}}', 1)).toMatchObject({
      key: 'a',
      valueJson: '{"x":1}',
    });
    expect(parseImportLine('   ', 2)).toBeNull();
    expect(parseImportLine('{"key":"a"', 3)).toMatchObject({ line: 3, reason: /not JSON/ });
    expect(parseImportLine('[1]', 4)).toMatchObject({ reason: /not an object/ });
    expect(parseImportLine('{"key":7,"value":1}', 5)).toMatchObject({ reason: /"key"/ });
    expect(parseImportLine('{"key":"a"}', 6)).toMatchObject({ reason: /"value" is missing/ });
    expect(parseImportLine('{"key":"a","value":null}', 7)).toMatchObject({ valueJson: 'null' });
  });

  it('takes export-artifact lines too, and reads a tombstone as one to skip', () => {
    const artifact = '{"key":"a","valueJson":"{\\"x\\":1}","sequence":4,"schemaVersion":0}';
    expect(parseImportLine(artifact, 1)).toEqual({
      line: 1,
      key: 'a',
      valueJson: '{"x":1}',
      shape: 'artifact',
      bytes: 8,
    });
    const tombstone = '{"key":"gone","valueJson":null,"sequence":5,"schemaVersion":0}';
    expect(parseImportLine(tombstone, 2)).toEqual({ line: 2, tombstone: 'gone' });
  });
});

describe('utf8Length', () => {
  it('counts as TextEncoder does', () => {
    for (const text of ['', 'abc', 'é', '€uro', '😀 x', '日本語', '\ud800x', 'a\udc00']) {
      expect(utf8Length(text), text).toBe(new TextEncoder().encode(text).length);
    }
  });
});

describe('importJsonLines', () => {
  it('sends batches of at most 1 000 entries, at most 3 in flight, and reports by line', async () => {
    const lines = Array.from({ length: 2500 }, (_, i) => line(`k${i}`, { i }));
    lines.splice(10, 0, 'not json', '');
    const server = fakeServer({ deadLetterKey: 'k5' });
    const { report, progress } = await run(`${lines.join('\r\n')}\n`, server);
    expect(server.calls.every((n) => n <= MAX_BATCH_ENTRIES)).toBe(true);
    expect(server.calls.reduce((a, b) => a + b, 0)).toBe(2500);
    expect(server.maxInFlight()).toBeLessThanOrEqual(3);
    expect(report).toMatchObject({ written: 2499, deadLettered: 1, refused: 1, cancelled: false });
    expect(report.refusedLines).toEqual([{ line: 11, reason: expect.stringMatching(/not JSON/) }]);
    expect(report.deadLetteredLines).toEqual([{ line: 6, key: 'k5', reason: 'SCHEMA_VIOLATION' }]);
    // Progress counts lines dealt with, not bytes read ahead: it rises in steps, never falls.
    expect(progress.at(-1)).toBe(report.totalBytes);
    expect(progress.some((p) => p > 0 && p < report.totalBytes / 2)).toBe(true);
    expect(progress.every((p, i) => i === 0 || p >= progress[i - 1]!)).toBe(true);
  });

  it('an entry the server refuses by index is refused alone; the rest of its batch is written', async () => {
    const text = ['a', 'b', 'bad', 'c'].map((k) => line(k, 1)).join('\n');
    const { report } = await run(text, fakeServer({ refuseKey: 'bad' }));
    expect(report).toMatchObject({ written: 3, refused: 1 });
    expect(report.refusedLines).toEqual([{ line: 3, reason: 'key: must not contain NUL' }]);
  });

  it('an error that names no entry stops the import and is reported', async () => {
    const failing: PutEntriesCall = async () => {
      throw new ConnectError('tree is write-locked', Code.FailedPrecondition);
    };
    const { report } = await run(line('a', 1), { ...fakeServer(), putEntries: failing });
    expect(report.written).toBe(0);
    expect(ConnectError.from(report.error).code).toBe(Code.FailedPrecondition);
  });

  it('cancelling stops reading and reports cancelled', async () => {
    const abort = new AbortController();
    abort.abort();
    const { report } = await run(line('a', 1), fakeServer(), abort.signal);
    expect(report).toMatchObject({ cancelled: true, written: 0 });
    expect(report.error).toBeUndefined();
  });

  it('reads an exported artifact (gzip, several members) and says which shape it read', async () => {
    const record = (key: string, value: unknown) =>
      `${JSON.stringify({ key, valueJson: value === null ? null : JSON.stringify(value), sequence: 1, schemaVersion: 0 })}\n`;
    const members = [
      record('a', { n: 1 }) + record('b', [1, 2]),
      record('gone', null) + record('c', 'three'),
    ];
    const gzip = await Promise.all(
      members.map(async (text) => {
        const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
        return new Uint8Array(await new Response(stream).arrayBuffer());
      }),
    );
    const sent: { key: string; valueJson: string }[] = [];
    const server = fakeServer();
    const { report, progress } = await run(new Blob(gzip), {
      ...server,
      putEntries: async (entries, signal) => {
        sent.push(...entries);
        return server.putEntries(entries, signal);
      },
    });
    expect(sent).toEqual([
      { key: 'a', valueJson: '{"n":1}' },
      { key: 'b', valueJson: '[1,2]' },
      { key: 'c', valueJson: '"three"' },
    ]);
    expect(report).toMatchObject({
      written: 3,
      refused: 0,
      tombstonesSkipped: 1,
      shapes: { import: 0, artifact: 4 },
      gzip: true,
    });
    expect(progress.at(-1)).toBe(report.totalBytes);
    expect(progress.every((p) => p <= report.totalBytes)).toBe(true);
  });

  it('counts each shape when a file mixes them', async () => {
    const text = `${line('a', 1)}\n{"key":"b","valueJson":"2","sequence":1,"schemaVersion":0}\n`;
    const { report } = await run(text);
    expect(report).toMatchObject({ written: 2, gzip: false, shapes: { import: 1, artifact: 1 } });
  });
});

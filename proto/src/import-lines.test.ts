import { describe, expect, it } from 'vitest';
import { readImportLine } from './import-lines.js';

describe('readImportLine', () => {
  it('reads the import shape, re-serialising the value', () => {
    expect(readImportLine('{"key": "a", "value": {"n": 1}}')).toEqual({
      kind: 'entry',
      shape: 'import',
      key: 'a',
      valueJson: '{"n":1}',
    });
    expect(readImportLine('{"key":"a","value":null}')).toMatchObject({ valueJson: 'null' });
  });

  it('reads the export-artifact shape, sending the stored text on as it is', () => {
    const line = '{"key":"a","valueJson":"{\\"n\\": 1.50}","sequence":7,"schemaVersion":2}';
    expect(readImportLine(line)).toEqual({
      kind: 'entry',
      shape: 'artifact',
      key: 'a',
      valueJson: '{"n": 1.50}',
    });
  });

  it('reads an artifact tombstone as a deletion to skip', () => {
    const line = '{"key":"gone","valueJson":null,"sequence":9,"schemaVersion":0}';
    expect(readImportLine(line)).toEqual({ kind: 'tombstone', shape: 'artifact', key: 'gone' });
  });

  it('skips blank lines and refuses the rest with a reason', () => {
    expect(readImportLine('   ')).toBeNull();
    const reasons = [
      '{"key": "x", "value": ',
      '[1]',
      '{"key": 3, "value": 1}',
      '{"key": "x"}',
      '{"key": "x", "value": 1, "valueJson": "1"}',
      '{"key": "x", "valueJson": 1}',
    ].map((text) => {
      const line = readImportLine(text);
      return line?.kind === 'refused' ? line.reason : line?.kind;
    });
    expect(reasons).toEqual([
      expect.stringMatching(/^not JSON: /),
      'not an object {"key": …, "value": …}',
      '"key" must be a non-empty string',
      '"value" is missing (an export-artifact line has "valueJson" instead)',
      'has both "value" (import shape) and "valueJson" (export-artifact shape)',
      '"valueJson" must be JSON text (a string) or null',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { jsonDiffLines } from './json-diff';

describe('jsonDiffLines', () => {
  it('marks the changed member of an object and keeps the rest', () => {
    expect(jsonDiffLines('{"a":1,"b":2}', '{"a":1,"b":3}')).toEqual([
      { kind: 'same', text: '{' },
      { kind: 'same', text: '  "a": 1,' },
      { kind: 'removed', text: '  "b": 2' },
      { kind: 'added', text: '  "b": 3' },
      { kind: 'same', text: '}' },
    ]);
  });

  it('shows an added value as added lines only, a removed one as removed lines only', () => {
    expect(jsonDiffLines(undefined, '[1]').every((l) => l.kind === 'added')).toBe(true);
    expect(jsonDiffLines('"x"', undefined)).toEqual([{ kind: 'removed', text: '"x"' }]);
  });
});

import { describe, expect, it } from 'vitest';
import { checkJsonText, formatJsonText, lineAndColumn } from './json-text';

describe('checkJsonText', () => {
  it('accepts any single JSON value', () => {
    expect(checkJsonText('{"a": [1, 2]}')).toEqual({ ok: true });
    expect(checkJsonText(' 42 ')).toEqual({ ok: true });
  });

  it('refuses empty text with a hint', () => {
    expect(checkJsonText('  ')).toMatchObject({ ok: false, message: /Enter a JSON value/ });
  });

  it('says where the text stops being JSON', () => {
    const check = checkJsonText('{\n  "a": 1,\n  oops\n}');
    expect(check.ok).toBe(false);
    expect(!check.ok && check.message).toMatch(/line 3/);
  });
});

describe('lineAndColumn', () => {
  it('counts lines and columns from 1', () => {
    expect(lineAndColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
    expect(lineAndColumn('ab', 0)).toEqual({ line: 1, column: 1 });
  });
});

describe('formatJsonText', () => {
  it('indents objects and arrays and keeps empty ones inline', () => {
    expect(formatJsonText('{"a":[1,{}],"b":[]}')).toBe(
      '{\n  "a": [\n    1,\n    {}\n  ],\n  "b": []\n}',
    );
  });

  it('keeps numbers exactly as stored, past what a double can hold', () => {
    expect(formatJsonText('{"n":9007199254740993,"d":0.10000000000000000001}')).toBe(
      '{\n  "n": 9007199254740993,\n  "d": 0.10000000000000000001\n}',
    );
  });

  it('leaves punctuation and escapes inside strings alone', () => {
    expect(formatJsonText('{"k":"a,b:{\\"c\\"}"}')).toBe('{\n  "k": "a,b:{\\"c\\"}"\n}');
  });
});

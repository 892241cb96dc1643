import { describe, expect, it } from 'vitest';
import { checkJson, formatSyntaxError, locateSyntaxError } from './json-syntax';

describe('checkJson', () => {
  it('parses valid JSON and returns its value', () => {
    expect(checkJson('{"a": [1, true, null, "x"]}')).toEqual({
      ok: true,
      value: { a: [1, true, null, 'x'] },
    });
  });

  it('points at a missing value with its line and column', () => {
    const result = checkJson('{\n  "type": "object",\n  "required": \n}');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({
      line: 4,
      column: 1,
      message: "expected a value, found '}'",
    });
    expect(formatSyntaxError(result.error)).toBe("Line 4, column 1: expected a value, found '}'");
  });

  it('points at a trailing comma, a missing colon and an unquoted name', () => {
    expect(locateSyntaxError('[1, 2,]')).toMatchObject({
      column: 7,
      message: "expected a value, found ']'",
    });
    expect(locateSyntaxError('{"a" 1}')).toMatchObject({
      column: 6,
      message: "expected ':' after the property name, found '1'",
    });
    expect(locateSyntaxError('{type: 1}')).toMatchObject({
      column: 2,
      message: "expected a property name in double quotes, found 't'",
    });
  });

  it('reports an unterminated string where it starts, and text after the value', () => {
    expect(locateSyntaxError('{"a": "abc')).toMatchObject({
      column: 7,
      message: 'unterminated string',
    });
    expect(locateSyntaxError('{} {}')).toMatchObject({
      column: 4,
      message: "unexpected '{' after the value",
    });
    expect(locateSyntaxError('   ')).toMatchObject({
      message: 'the text is empty: expected a JSON value',
    });
  });

  it('agrees with JSON.parse on what is valid', () => {
    const samples = [
      '0',
      '-0.5e+3',
      '"\\u00e9\\n"',
      '01',
      '1.',
      '"\\x"',
      '[1,]',
      'tru',
      '{"a":{}}',
      ' [ ] ',
    ];
    for (const text of samples) {
      let native = true;
      try {
        JSON.parse(text);
      } catch {
        native = false;
      }
      expect(locateSyntaxError(text) === undefined, text).toBe(native);
    }
  });
});

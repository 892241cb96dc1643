import { fullFormats } from 'ajv-formats/dist/formats.js';
import { describe, expect, it } from 'vitest';
import { compileSchema } from './policy-compiler.js';
import { POLICY_FORMATS } from './policy-formats.js';

function formatValidator(format: string) {
  return compileSchema(JSON.stringify({ type: 'string', format }));
}

// A value each format accepts and one it refuses.
const CASES: [format: string, good: string, bad: string][] = [
  ['email', 'ada@example.com', 'not-an-email'],
  ['date-time', '2024-02-29T12:30:00Z', '2023-02-29T12:30:00Z'],
  ['date', '2024-02-29', '2024-13-01'],
  ['time', '23:59:59+02:00', '24:00:00Z'],
  ['duration', 'P1Y2M3DT4H5M6S', 'PT'],
  ['uri', 'https://example.com/a?b=c#d', 'example.com/no-scheme'],
  ['uri-reference', '../a/b?c', 'a b'],
  ['uuid', '123e4567-e89b-12d3-a456-426614174000', '123e4567-e89b-12d3-a456'],
  ['ipv4', '192.168.0.1', '256.1.1.1'],
  ['ipv6', '2001:db8::1', '2001:db8:::1'],
  ['hostname', 'api.example.com', '-bad-.example.com'],
  ['regex', '^[a-z]+$', '(unclosed'],
  ['json-pointer', '/a/b~1c', 'a/b'],
];

describe('policy formats are asserted', () => {
  it.each(CASES)('%s accepts a good value and refuses a bad one', (format, good, bad) => {
    const validator = formatValidator(format);
    expect(validator.validate(good)).toEqual([]);
    expect(validator.explain(bad)).toEqual([
      { path: '', message: `must match format "${format}"`, keyword: 'format' },
    ]);
  });

  it('checks a format inside an object and names the property', () => {
    const validator = compileSchema(
      JSON.stringify({ type: 'object', properties: { contact: { format: 'email' } } }),
    );
    expect(validator.validate({ contact: 'not-an-email' })).toEqual([
      { path: '/contact', message: 'must match format "email"' },
    ]);
    // A format applies to strings only: a number passes, as JSON Schema says.
    expect(validator.isValid({ contact: 42 })).toBe(true);
  });

  it('keeps an unknown format an annotation: the schema compiles and any string passes', () => {
    const validator = formatValidator('x-company-code');
    expect(validator.isValid('anything at all')).toBe(true);
    expect(formatValidator('url').isValid('not a url')).toBe(true);
  });

  it('hostname keeps its 253-character limit (a trailing dot aside)', () => {
    const label = 'a'.repeat(63);
    const name253 = [label, label, label, 'a'.repeat(61)].join('.');
    expect(name253).toHaveLength(253);
    const validator = formatValidator('hostname');
    expect(validator.isValid(name253)).toBe(true);
    expect(validator.isValid(`${name253}.`)).toBe(true);
    expect(validator.isValid(`${name253}a`)).toBe(false);
  });
});

// The rewrites for the linear engine must give ajv-formats' own verdicts.
const SAMPLES: Record<string, string[]> = {
  email: [
    'A@B.CO',
    'a.b@c-d.e',
    'a..b@c.d',
    '@c.d',
    'a@-c.d',
    'a@c',
    'k@\u212Aelvin.com',
    'ſ@s.io',
  ],
  duration: ['P', 'PT', 'P1W', 'P1Y', 'PT1H', 'P1DT', 'P1Y1W', 'PT1.5S', 'P1DT2H', 'p1d'],
  hostname: ['A.B', 'a-.b', 'a', 'a.', '.a', 'x'.repeat(64), `${'a.'.repeat(126)}a`, '\u212A.io'],
  ipv6: ['::', '::FFFF:1.2.3.4', '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8:9', 'G::1'],
  uuid: ['URN:UUID:123E4567-E89B-12D3-A456-426614174000', '123e4567e89b12d3a456426614174000'],
  'uri-reference': ['HTTP://[V1.x]/a', '#frag', '//h:80/p', 'a%zz', '\u212A'],
  'uri-template': ['/a/{b}', '/a/{+B*}', '/a/{b', '/\u212A/{x}'],
  'json-pointer-uri-fragment': ['#/A/%AA', '#/a b'],
};

describe('formats on the linear engine agree with ajv-formats', () => {
  it.each(Object.entries(SAMPLES))('%s', (format, samples) => {
    const original = fullFormats[format as keyof typeof fullFormats] as RegExp;
    const ours = POLICY_FORMATS[format] as (value: string) => boolean;
    for (const sample of samples) {
      expect([sample, ours(sample)]).toEqual([sample, original.test(sample)]);
    }
  });
});

describe('a hostile value cannot make a format check slow', () => {
  const VALUE = 256 * 1024; // the server's largest value
  const hostile: [string, string][] = [
    ['email', `${'a'.repeat(VALUE)}!`],
    ['email', `a@${'a.'.repeat(VALUE / 2)}!`],
    ['uri', `a://${'%aa'.repeat(VALUE / 3)} `],
    ['uri-reference', `${'a'.repeat(VALUE)} `],
    ['hostname', `${'a-'.repeat(VALUE / 2)}!`],
    ['ipv6', `${'1:'.repeat(VALUE / 2)}x`],
    ['date-time', `2020-01-01T${'1'.repeat(VALUE)}`],
    // `regex` parses the value as a pattern and never runs it: nested quantifiers cost nothing.
    ['regex', '(a+)+$'.repeat(VALUE / 6)],
    ['regex', `${'('.repeat(VALUE / 2)}${')'.repeat(VALUE / 2)}`],
  ];
  it.each(hostile)('%s over %#', (format, value) => {
    const validator = formatValidator(format);
    const started = performance.now();
    validator.isValid(value);
    // Backtracking would take seconds to hours; linear checks of 256 KiB take milliseconds.
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

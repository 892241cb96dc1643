import type { Format } from 'ajv/dist/2020.js';
import { fullFormats, type FormatName } from 'ajv-formats/dist/formats.js';
import { linearRegExp } from './linear-regexp.js';

/** Formats that stay annotations although ajv-formats defines them. */
export const ANNOTATION_ONLY_FORMATS: readonly FormatName[] = ['url'];

// ajv-formats' `duration` without its two lookaheads: `(?!$)` after `P` (not "P" alone) and
// `(?=\d)` after `T` (a T is followed by at least one component, so the value cannot end in T).
const DURATION = linearRegExp(
  '^P(?:(\\d+Y)?(\\d+M)?(\\d+D)?(T(\\d+H)?(\\d+M)?(\\d+S)?)?|(\\d+W)?)$',
  '',
);

// ajv-formats' `hostname` without its lookahead `(?=.{1,253}\.?$)`, checked as a length instead.
const HOSTNAME = linearRegExp(
  '^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\\.?$',
  '',
);
const MAX_HOSTNAME_LENGTH = 253;

const LINEAR_REWRITES: Partial<Record<FormatName, (value: string) => boolean>> = {
  duration: (value) => value !== 'P' && !value.endsWith('T') && DURATION.test(value),
  hostname: (value) => {
    const bare = value.endsWith('.') ? value.slice(0, -1) : value;
    return bare.length <= MAX_HOSTNAME_LENGTH && HOSTNAME.test(asciiLowerCase(value));
  },
};

function buildFormats(): Record<string, Format> {
  const formats: Record<string, Format> = {};
  for (const [name, format] of Object.entries(fullFormats) as [FormatName, Format][]) {
    if (ANNOTATION_ONLY_FORMATS.includes(name)) continue;
    const rewrite = LINEAR_REWRITES[name];
    if (rewrite) formats[name] = rewrite;
    else if (format instanceof RegExp) formats[name] = onLinearEngine(format);
    else formats[name] = format;
  }
  return formats;
}

/** The same expression on RE2; `i` is applied by lower-casing ASCII letters of the value. */
function onLinearEngine(expression: RegExp): (value: string) => boolean {
  const caseInsensitive = expression.flags.includes('i');
  const source = caseInsensitive ? lowerCaseLiterals(expression.source) : expression.source;
  const matcher = linearRegExp(source, '');
  return caseInsensitive
    ? (value) => matcher.test(asciiLowerCase(value))
    : (value) => matcher.test(value);
}

/**
 * Lower-cases the literal letters of a pattern (not escapes such as `\S` or `\d`), so matching a
 * lower-cased value is what `i` meant. ajv-formats' case-insensitive expressions are written in
 * lower case but for `[Vv]`; this keeps the rewrite right if a future version is not.
 */
function lowerCaseLiterals(source: string): string {
  return source.replace(/\\.|[A-Z]/g, (match) =>
    match.length === 2 ? match : match.toLowerCase(),
  );
}

const ASCII_UPPER = /[A-Z]/g;

function asciiLowerCase(value: string): string {
  return value.replace(ASCII_UPPER, (letter) => letter.toLowerCase());
}

/**
 * The `format` values a policy asserts: ajv-formats' "full" set (email, date-time, date, time,
 * duration, uri, uri-reference, uri-template, uuid, ipv4, ipv6, hostname, regex, json-pointer,
 * relative-json-pointer, byte, int32, …). A format not listed here stays an annotation.
 *
 * Every regular expression a format runs against a tenant's value runs on the linear-time RE2
 * engine that `pattern` uses (linear-regexp.ts), so no value can make a write backtrack:
 *
 * - ajv-formats' plain regular expressions are recompiled on RE2. Their `i` flag becomes an ASCII
 *   lower-casing of the value: RE2's Unicode case folding would also let U+212A (Kelvin sign)
 *   and U+017F (long s) through as `k` and `s`, which V8's `/i` does not.
 * - `duration` and `hostname` use lookaround, which RE2 cannot run: they are rewritten above
 *   without it (same verdicts, checked against ajv-formats' own expressions in the tests).
 * - The formats ajv-formats writes as functions (date, time, date-time, uri, regex, byte, the
 *   number formats) are used as they are: their inner expressions are fixed, anchored and
 *   without nested repetition (a 1 MB hostile value is checked in milliseconds). `regex` only
 *   parses the value as an ECMAScript pattern (V8 parses in linear time and runs nothing), so a
 *   hostile pattern stored as data is never executed.
 * - `url` is left out (an annotation): it is not a JSON Schema format, ajv-formats deprecates it,
 *   and its private-address exclusions are lookaheads.
 *
 * (Built last: it reads the rewrites and expressions above.)
 */
export const POLICY_FORMATS: Readonly<Record<string, Format>> = buildFormats();

import { RE2JS } from 're2js';

/**
 * Ajv's `code.regExp` engine for `pattern` and `patternProperties`: RE2 semantics (re2js, a pure
 * JavaScript port of RE2), so matching is linear in the input. V8's RegExp backtracks: a tenant's
 * `"^(a+)+$"` took seconds for 26 characters and held the event loop, freezing every tenant.
 *
 * re2js rather than the `re2` native addon: no compiler or prebuilt binary is needed at install
 * (the project already compiles better-sqlite3 and must not download binaries), and it runs
 * wherever Node runs. Patterns RE2 cannot run in linear time (lookaround, backreferences) are
 * refused when the policy is set, with InvalidArgument naming the pattern.
 */
export function linearRegExp(
  pattern: string,
  flags: string,
): { test(input: string): boolean; toString(): string } {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(fromEcmaScript(pattern));
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(
      `pattern ${JSON.stringify(pattern)} is not supported: ${why} (patterns run on a ` +
        'linear-time RE2 engine: no lookaround or backreferences)',
      { cause: error },
    );
  }
  return {
    test: (input: string) => compiled.test(input),
    // Ajv keys its compiled patterns by this text: it must differ between patterns.
    toString: () => `/${pattern}/${flags}`,
  };
}
// Ajv emits this only in standalone code, which the server never generates.
linearRegExp.code = 'linearRegExp';

/**
 * The few ECMAScript escapes RE2 spells differently: `\uXXXX` and `\u{X…}` are `\x{…}` in RE2.
 * Everything else JSON Schema patterns use in practice (classes, `\d \w \s`, anchors, groups,
 * bounded repeats, escaped punctuation) has the same meaning in both.
 */
function fromEcmaScript(pattern: string): string {
  return pattern.replace(
    /(\\\\)|\\u\{([0-9A-Fa-f]{1,6})\}|\\u([0-9A-Fa-f]{4})/g,
    (match, escapedBackslash: string | undefined, braced?: string, four?: string) =>
      escapedBackslash ? match : `\\x{${braced ?? four}}`,
  );
}

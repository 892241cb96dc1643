/**
 * Compares keys in the order the database returns them: byte order of their UTF-8 (SQLite's
 * BINARY collation, PostgreSQL's "C"), which is code-point order. JavaScript's `<` compares
 * UTF-16 code units instead, which puts U+E000–U+FFFF after the surrogate pairs of U+10000 and
 * above; the first differing unit is shifted so both orders agree.
 */
export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** Surrogates (U+D800–U+DFFF) rank above U+E000–U+FFFF, as their code points do. */
function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

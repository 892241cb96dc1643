import { describe, expect, it } from 'vitest';
import { StoreError } from '../errors.js';
import {
  scopedTreeId,
  validateEntryKey,
  validateKeyPrefix,
  validateTenantId,
  validateTreeName,
} from './tree-names.js';

/** Names a tree may not have: traversal, escapes, separators, look-alikes, control characters. */
const BAD_TREE_NAMES: readonly unknown[] = [
  '',
  '.',
  '..',
  '../x',
  './x',
  't/other/x',
  'a/b',
  'a\\b',
  '%2e%2e',
  '%2F',
  'a\0b',
  '\0',
  'a b',
  ' a',
  'a\n',
  'tab\t',
  'tréé',
  'tрее', // Cyrillic р and е
  'ｔree', // fullwidth t
  'a\u2024b', // one-dot leader, looks like '.'
  'a\u200bb', // zero-width space
  '😀',
  'x'.repeat(129),
  'x'.repeat(10 * 1024),
  'a:b',
  'a*',
  undefined,
  null,
  42,
];

const GOOD_TREE_NAMES = ['a', 'A-b_c.d', '...', '.hidden', 'x'.repeat(128), '0', '-', '_'];

function expectInvalid(action: () => unknown, field: string) {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ code: 'invalid_argument', field });
    expect((error as Error).message.startsWith(`${field}: `)).toBe(true);
    return;
  }
  throw new Error('expected InvalidArgument');
}

describe('tree names', () => {
  it.each(BAD_TREE_NAMES.map((name) => [JSON.stringify(name)?.slice(0, 30), name]))(
    'when the tree name is %s, validation is InvalidArgument on tree_id',
    (_shown, name) => {
      expectInvalid(() => validateTreeName(name), 'tree_id');
    },
  );

  it.each(GOOD_TREE_NAMES)('accepts the tree name %s', (name) => {
    expect(validateTreeName(name)).toBe(name);
  });

  it('names the field the caller asks for', () => {
    expectInvalid(() => validateTreeName('../x', 'target_tree_id'), 'target_tree_id');
  });

  it('keeps the message short when the name is 10 KB', () => {
    expect(() => validateTreeName(`${'ab'.repeat(5000)}/`)).toThrow(
      expect.objectContaining({ message: expect.stringMatching(/^tree_id: .{1,200}$/) }),
    );
  });

  it('applies the same rule to tenant ids, on the tenant field', () => {
    for (const bad of ['', '..', 't/x', 'tеnant', 'x'.repeat(129)]) {
      expectInvalid(() => validateTenantId(bad), 'tenant');
    }
    expect(validateTenantId('acme-1')).toBe('acme-1');
  });

  it('scopes a name as t/{tenant}/{name} and refuses what could escape the scope', () => {
    expect(scopedTreeId('acme', 'orders')).toBe('t/acme/orders');
    expectInvalid(() => scopedTreeId('acme', '../other'), 'tree_id');
    expectInvalid(() => scopedTreeId('acme/other', 'x'), 'tenant');
  });
});

describe('entry keys', () => {
  it.each([
    ['empty', ''],
    ['NUL inside', 'a\0b'],
    ['1025 ASCII bytes', 'k'.repeat(1025)],
    ['1026 UTF-8 bytes of é', 'é'.repeat(513)],
    ['a lone surrogate', 'a\ud800b'],
    ['not text', 7],
  ])('when the key is %s, validation is InvalidArgument on key', (_what, key) => {
    expectInvalid(() => validateEntryKey(key), 'key');
  });

  it.each([
    ['exactly 1024 UTF-8 bytes', 'é'.repeat(512)],
    ['a path-like key', '../x/t/other'],
    ['wildcards', '%_*?'],
    ['an emoji', 'user:😀'],
    ['mixed case', 'AbC'],
  ])('accepts a key with %s', (_what, key) => {
    expect(validateEntryKey(key)).toBe(key);
  });

  it('accepts an empty key prefix and checks others like keys, on key_prefix', () => {
    expect(validateKeyPrefix('')).toBe('');
    expect(validateKeyPrefix(undefined)).toBe('');
    expectInvalid(() => validateKeyPrefix('a\0'), 'key_prefix');
    expectInvalid(() => validateKeyPrefix('k'.repeat(1025)), 'key_prefix');
  });
});

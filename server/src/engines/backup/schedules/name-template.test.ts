import { describe, expect, it } from 'vitest';
import { DEFAULT_NAME_TEMPLATE, renderBackupName, validateNameTemplate } from './name-template.js';

describe('scheduled backup names', () => {
  const at = Date.parse('2026-11-25T01:05:09Z');

  it('the default template reads tree, kind, local minute and zone, and sorts by time', () => {
    const name = (when: number, kind: 'full' | 'incremental' = 'full') =>
      renderBackupName(DEFAULT_NAME_TEMPLATE, {
        treeName: 'inventory',
        keyPrefix: '',
        kind,
        at: when,
        timeZone: 'Europe/Berlin',
      });
    expect(name(at)).toBe('inventory full 2026-11-25 02:05 Europe/Berlin');
    expect(name(at, 'incremental')).toBe('inventory incremental 2026-11-25 02:05 Europe/Berlin');
    const later = [at, at + 9 * 3_600_000, at + 40 * 86_400_000].map((t) => name(t));
    expect([...later].reverse().sort()).toEqual(later);
  });

  it('names a key prefix, and every placeholder fills in', () => {
    expect(
      renderBackupName('{tree}|{prefix}|{scope}|{kind}|{YYYY}{MM}{DD}T{HH}{mm}{ss}|{zone}', {
        treeName: 'orders',
        keyPrefix: 'eu/',
        kind: 'incremental',
        at,
        timeZone: 'UTC',
      }),
    ).toBe('orders|eu/|orders eu/|incremental|20261125T010509|UTC');
  });

  it('refuses unknown placeholders, stray braces, blank and overlong templates', () => {
    expect(() => validateNameTemplate('{tree} {date}')).toThrow(/unknown placeholder \{date\}/);
    expect(() => validateNameTemplate('{tree} }')).toThrow(/brace/);
    expect(() => validateNameTemplate('   ')).toThrow(/blank/);
    expect(() => validateNameTemplate('x'.repeat(201))).toThrow(/200/);
    expect(validateNameTemplate('nightly {tree} {YYYY}-{MM}-{DD}')).toBe(
      'nightly {tree} {YYYY}-{MM}-{DD}',
    );
  });
});

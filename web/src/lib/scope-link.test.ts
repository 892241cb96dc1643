import { describe, expect, it } from 'vitest';
import { scopeLink } from './scope-link';

describe('scopeLink', () => {
  it('leads a tree to its tree page, its name encoded', () => {
    expect(scopeLink('inventory')).toEqual({ to: '/trees/inventory', text: 'tree inventory' });
    expect(scopeLink('a b')?.to).toBe('/trees/a%20b');
  });

  it('leads a backup set to the schedule overview, named as a set', () => {
    expect(scopeLink('set:nightly')).toEqual({
      to: '/schedules/overview',
      text: 'set nightly',
    });
  });

  it('gives no link when the alert names no scope', () => {
    expect(scopeLink('')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { highestRole, needsRole } from './role-reason';

describe('needsRole', () => {
  it('names the role needed and the one the caller has, in one sentence', () => {
    expect(needsRole('operator', ['viewer'], 'acme')).toBe(
      'Needs the operator role (you are a viewer in tenant acme).',
    );
    expect(needsRole('admin', ['viewer', 'operator'], 'acme')).toBe(
      'Needs the admin role (you are an operator in tenant acme).',
    );
    expect(needsRole('operator', [], 'acme')).toBe(
      'Needs the operator role (you have no role in tenant acme).',
    );
    expect(needsRole('operator', ['viewer'])).toBe('Needs the operator role (you are a viewer).');
  });

  it('reads the highest known role', () => {
    expect(highestRole(['operator', 'viewer'])).toBe('operator');
    expect(highestRole(['auditor'])).toBeUndefined();
  });
});

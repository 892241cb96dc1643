import { describe, expect, it } from 'vitest';
import { auditMethodChoices } from './audit-methods';

describe('audit method choices', () => {
  it('offer the retention records the server writes by itself and the lifecycle calls, in words', () => {
    const choices = auditMethodChoices();
    expect(choices).toEqual(
      expect.arrayContaining([
        { value: 'RetentionDelete', label: 'Retention delete' },
        { value: 'RetentionApplyStopped', label: 'Retention apply stopped' },
        { value: 'SetRetentionRules', label: 'Set retention rules' },
      ]),
    );
    expect(new Set(choices.map((c) => c.value)).size).toBe(choices.length);
  });
});

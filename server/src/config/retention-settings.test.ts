import { describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';

describe('automatic retention settings', () => {
  it('default to rules that never apply by themselves unless chosen, and an automatic apply deleting at most half of a scope', () => {
    const config = loadConfig({ env: {} });
    expect(config.retentionApplyAfterScheduleDefault).toBe(false);
    expect(config.retentionAutoMaxShare).toBe(0.5);
  });

  it('read a share as a fraction or a percentage, and the default as a boolean', () => {
    const set = loadConfig({
      env: { STORE_RETENTION_APPLY_AFTER_SCHEDULE: 'true', STORE_RETENTION_AUTO_MAX_SHARE: '0.25' },
    });
    expect([set.retentionApplyAfterScheduleDefault, set.retentionAutoMaxShare]).toEqual([
      true,
      0.25,
    ]);
    expect(
      loadConfig({ env: { STORE_RETENTION_AUTO_MAX_SHARE: '30%' } }).retentionAutoMaxShare,
    ).toBeCloseTo(0.3);
  });

  it('refuse a share outside 0 to 1 with the setting named', () => {
    for (const raw of ['1.5', '-0.1', 'half', '', '150%']) {
      expect(() => loadConfig({ env: { STORE_RETENTION_AUTO_MAX_SHARE: raw } })).toThrow(
        /STORE_RETENTION_AUTO_MAX_SHARE: must be a share from 0 to 1/,
      );
    }
    expect(() => loadConfig({ env: { STORE_RETENTION_APPLY_AFTER_SCHEDULE: 'maybe' } })).toThrow(
      /STORE_RETENTION_APPLY_AFTER_SCHEDULE: must be true or false/,
    );
  });
});

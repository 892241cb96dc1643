import { describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';

describe('audit trail and sign-in limit settings (issue 18)', () => {
  it('default to a year of records, loopback proxies and 20 failures a minute', () => {
    const config = loadConfig({ env: {} });
    expect(config.auditRetentionDays).toBe(365);
    expect(config.trustedProxies).toEqual(['127.0.0.0/8', '::1']);
    expect(config.signInFailureLimit).toBe(20);
    expect(config.signInFailureWindowSeconds).toBe(60);
  });

  it('record 100 unverified refusals per address in 10 s by default', () => {
    const config = loadConfig({ env: {} });
    expect(config.refusalLimit).toBe(100);
    expect(config.refusalWindowSeconds).toBe(10);
    const set = loadConfig({ env: { STORE_REFUSAL_LIMIT: '0', STORE_REFUSAL_WINDOW: '60' } });
    expect([set.refusalLimit, set.refusalWindowSeconds]).toEqual([0, 60]);
  });

  it('read a proxy list with CIDR ranges, `none` for no proxy at all', () => {
    const env = { STORE_TRUSTED_PROXIES: ' 10.0.0.0/8 , fd00::/8,192.0.2.1 ' };
    expect(loadConfig({ env }).trustedProxies).toEqual(['10.0.0.0/8', 'fd00::/8', '192.0.2.1']);
    expect(loadConfig({ env: { STORE_TRUSTED_PROXIES: 'none' } }).trustedProxies).toEqual([]);
  });

  it('refuse bad values with the setting named', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ STORE_TRUSTED_PROXIES: '10.0.0.0/40' }, /STORE_TRUSTED_PROXIES: "10.0.0.0\/40" is not/],
      [{ STORE_TRUSTED_PROXIES: 'envoy' }, /STORE_TRUSTED_PROXIES: "envoy" is not/],
      [{ STORE_AUDIT_RETENTION_DAYS: '0' }, /STORE_AUDIT_RETENTION_DAYS: must be an integer/],
      [{ STORE_SIGN_IN_FAILURE_LIMIT: '-1' }, /STORE_SIGN_IN_FAILURE_LIMIT: must be an integer/],
      [{ STORE_SIGN_IN_FAILURE_WINDOW: '0' }, /STORE_SIGN_IN_FAILURE_WINDOW: must be an integer/],
      [{ STORE_REFUSAL_LIMIT: 'many' }, /STORE_REFUSAL_LIMIT: must be an integer/],
      [{ STORE_REFUSAL_WINDOW: '0' }, /STORE_REFUSAL_WINDOW: must be an integer/],
    ];
    for (const [env, message] of cases) expect(() => loadConfig({ env })).toThrow(message);
  });
});

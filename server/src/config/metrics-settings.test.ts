import { describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';

describe('metrics settings', () => {
  it('default to the default port on loopback, 1000 scopes and 15 minutes to stuck', () => {
    const config = loadConfig({ env: {} });
    // Not set: the default port (9464), best effort (app.ts).
    expect(config.metricsPort).toBeUndefined();
    expect(config.metricsHost).toBe('127.0.0.1');
    expect(config.metricsMaxScopes).toBe(1000);
    expect(config.operationStuckAfterSeconds).toBe(900);
  });

  it('read a port, `off`, a bound and a threshold', () => {
    const set = loadConfig({
      env: {
        STORE_METRICS_PORT: '9100',
        STORE_METRICS_HOST: '0.0.0.0',
        STORE_METRICS_MAX_SCOPES: '100',
        STORE_OPERATION_STUCK_AFTER_SECONDS: '60',
      },
    });
    expect([set.metricsPort, set.metricsHost, set.metricsMaxScopes]).toEqual([
      9100,
      '0.0.0.0',
      100,
    ]);
    expect(set.operationStuckAfterSeconds).toBe(60);
    expect(loadConfig({ env: { STORE_METRICS_PORT: 'off' } }).metricsPort).toBeNull();
    expect(loadConfig({ env: { STORE_METRICS_PORT: 'OFF' } }).metricsPort).toBeNull();
  });

  it('refuse what is no port, bound or threshold, with the setting named', () => {
    for (const raw of ['70000', '-1', 'on', '']) {
      expect(() => loadConfig({ env: { STORE_METRICS_PORT: raw } })).toThrow(
        /STORE_METRICS_PORT: must be an integer from 0 to 65535/,
      );
    }
    expect(() => loadConfig({ env: { STORE_METRICS_MAX_SCOPES: 'many' } })).toThrow(
      /STORE_METRICS_MAX_SCOPES/,
    );
    expect(() => loadConfig({ env: { STORE_OPERATION_STUCK_AFTER_SECONDS: '0' } })).toThrow(
      /STORE_OPERATION_STUCK_AFTER_SECONDS/,
    );
  });
});

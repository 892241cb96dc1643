import { describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';

describe('operation caps and preview start rate settings', () => {
  it('default to 4 previews and 64 other operations per tenant, one preview slot per server, 60 preview starts a minute per caller, 20 at once', () => {
    const config = loadConfig({ env: {} });
    expect(config.operationPreviewCap).toBe(4);
    expect(config.operationTenantCap).toBe(64);
    expect(config.operationPreviewSlots).toBe(1);
    expect(config.previewStartsPerMinute).toBe(60);
    expect(config.previewStartBurst).toBe(20);
  });

  it('read set values, 0 switching the rate limit off', () => {
    const config = loadConfig({
      env: {
        STORE_OPERATION_PREVIEW_CAP: '2',
        STORE_OPERATION_TENANT_CAP: '10',
        STORE_OPERATION_PREVIEW_SLOTS: '2',
        STORE_PREVIEW_START_RATE: '0',
        STORE_PREVIEW_START_BURST: '5',
      },
    });
    expect(config).toMatchObject({
      operationPreviewCap: 2,
      operationTenantCap: 10,
      operationPreviewSlots: 2,
      previewStartsPerMinute: 0,
      previewStartBurst: 5,
    });
  });

  it('refuse bad values with the setting named', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ STORE_OPERATION_PREVIEW_CAP: '0' }, /STORE_OPERATION_PREVIEW_CAP: must be an integer/],
      [{ STORE_OPERATION_TENANT_CAP: 'many' }, /STORE_OPERATION_TENANT_CAP: must be an integer/],
      [{ STORE_OPERATION_PREVIEW_SLOTS: '0' }, /STORE_OPERATION_PREVIEW_SLOTS: must be an integer/],
      [{ STORE_PREVIEW_START_RATE: '-1' }, /STORE_PREVIEW_START_RATE: must be an integer/],
      [{ STORE_PREVIEW_START_BURST: '0' }, /STORE_PREVIEW_START_BURST: must be an integer/],
    ];
    for (const [env, message] of cases) expect(() => loadConfig({ env })).toThrow(message);
  });
});

import { describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';

describe('preview storage settings', () => {
  it('default to 10 000 differences and 16 MiB per preview, a day, 256 MiB per tenant', () => {
    const config = loadConfig({ env: {} });
    expect(config.previewMaxStoredDifferences).toBe(10_000);
    expect(config.previewMaxStoredBytes).toBe(16 * 1024 * 1024);
    expect(config.previewDifferencesTtlSeconds).toBe(86_400);
    expect(config.previewTenantMaxBytes).toBe(256 * 1024 * 1024);
  });

  it('read set values, 0 included (store no differences)', () => {
    const config = loadConfig({
      env: { STORE_PREVIEW_MAX_STORED_DIFFERENCES: '0', STORE_PREVIEW_DIFFERENCES_TTL: '3600' },
    });
    expect(config.previewMaxStoredDifferences).toBe(0);
    expect(config.previewDifferencesTtlSeconds).toBe(3600);
  });

  it('refuse bad values with the setting named', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [
        { STORE_PREVIEW_MAX_STORED_DIFFERENCES: '-1' },
        /STORE_PREVIEW_MAX_STORED_DIFFERENCES: must be an integer/,
      ],
      [
        { STORE_PREVIEW_MAX_STORED_BYTES: '16MiB' },
        /STORE_PREVIEW_MAX_STORED_BYTES: must be an integer/,
      ],
      [
        { STORE_PREVIEW_DIFFERENCES_TTL: '0' },
        /STORE_PREVIEW_DIFFERENCES_TTL: must be an integer from 1/,
      ],
      [
        { STORE_PREVIEW_TENANT_MAX_BYTES: 'lots' },
        /STORE_PREVIEW_TENANT_MAX_BYTES: must be an integer/,
      ],
    ];
    for (const [env, message] of cases) expect(() => loadConfig({ env })).toThrow(message);
  });
});

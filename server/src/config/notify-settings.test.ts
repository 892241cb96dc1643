import { describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';

describe('notification settings', () => {
  it('default to public webhook targets only, a pause after 10 failures, 10 s attempts, no SMTP', () => {
    const config = loadConfig({ env: {} });
    expect([
      config.notifyAllowPrivateTargets,
      config.notifyPauseAfter,
      config.notifyTimeoutMs,
      config.notifyDelivery,
      config.notifyPollMs,
      config.smtpUrl,
      config.smtpFrom,
    ]).toEqual([false, 10, 10_000, true, 2_000, undefined, undefined]);
  });

  it('are read from STORE_NOTIFY_* and STORE_SMTP_*', () => {
    const config = loadConfig({
      env: {
        STORE_NOTIFY_ALLOW_PRIVATE_TARGETS: 'true',
        STORE_NOTIFY_PAUSE_AFTER: '3',
        STORE_NOTIFY_TIMEOUT_MS: '500',
        STORE_NOTIFY_DELIVERY: 'false',
        STORE_NOTIFY_POLL_MS: '100',
        STORE_SMTP_URL: 'smtps://user:pw@mail.example.com:465',
        STORE_SMTP_FROM: 'store@example.com',
      },
    });
    expect(config).toMatchObject({
      notifyAllowPrivateTargets: true,
      notifyPauseAfter: 3,
      notifyTimeoutMs: 500,
      notifyDelivery: false,
      notifyPollMs: 100,
      smtpUrl: 'smtps://user:pw@mail.example.com:465',
      smtpFrom: 'store@example.com',
    });
  });

  it.each([
    ['STORE_NOTIFY_PAUSE_AFTER', '0', /STORE_NOTIFY_PAUSE_AFTER: must be an integer from 1/],
    ['STORE_NOTIFY_TIMEOUT_MS', 'soon', /STORE_NOTIFY_TIMEOUT_MS: must be an integer/],
    ['STORE_NOTIFY_ALLOW_PRIVATE_TARGETS', 'maybe', /must be true or false/],
    [
      'STORE_SMTP_URL',
      'http://mail.example.com',
      /STORE_SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/,
    ],
  ])('refuses %s=%s at start', (name, value, message) => {
    expect(() => loadConfig({ env: { [name]: value } })).toThrow(message);
  });
});

import { describe, expect, it } from 'vitest';
import { isStoreError } from '../errors.js';
import { checkWebhookUrl, refusedAddressReason } from './address-guard.js';

describe('webhook address guard', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.10.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['fe80::1', 'linkLocal'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['fc00::1', 'uniqueLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
  ])('refuses %s (%s)', (address, range) => {
    expect(refusedAddressReason(address)).toBe(`${address} is a ${range} address`);
  });

  it.each(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:93.184.216.34'])(
    'accepts the public address %s',
    (address) => {
      expect(refusedAddressReason(address)).toBeNull();
    },
  );

  it.each([
    ['http://127.0.0.1:9/x', /127\.0\.0\.1 is a loopback address/],
    ['http://[::1]:9/x', /::1 is a loopback address/],
    ['http://[::ffff:169.254.169.254]/latest', /linkLocal/],
    ['http://localhost:9/x', /resolves to .* loopback address/],
    ['ftp://example.com/x', /http:\/\/ or https:\/\//],
    ['not a url', /is not a URL/],
    ['https://user:pw@example.com/', /user name or password/],
  ])('refuses %s at save', async (url, message) => {
    const error = await checkWebhookUrl(url, false).catch((e: unknown) => e);
    expect(isStoreError(error) && error.code).toBe('invalid_argument');
    expect((error as Error).message).toMatch(message);
  });

  it('lets the operator allow private targets', async () => {
    await expect(checkWebhookUrl('http://localhost:9/x', true)).resolves.toBeInstanceOf(URL);
  });
});

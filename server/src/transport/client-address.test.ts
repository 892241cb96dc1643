import { Code } from '@connectrpc/connect';
import { describe, expect, it } from 'vitest';
import { parseTrustedProxies } from '../config/trusted-proxies.js';
import { outcomeName } from './audit-interceptor.js';
import { clientAddressOf } from './client-address.js';

describe('clientAddressOf', () => {
  const loopback = parseTrustedProxies(['127.0.0.0/8', '::1']);

  it('believes x-forwarded-for only from a trusted peer', () => {
    expect(clientAddressOf('127.0.0.1', '203.0.113.7', loopback)).toBe('203.0.113.7');
    expect(clientAddressOf('::ffff:127.0.0.1', '203.0.113.7', loopback)).toBe('203.0.113.7');
    expect(clientAddressOf('198.51.100.2', '203.0.113.7', loopback)).toBe('198.51.100.2');
    expect(clientAddressOf('127.0.0.1', '203.0.113.7', parseTrustedProxies([]))).toBe('127.0.0.1');
    expect(clientAddressOf('::ffff:10.1.2.3', null, loopback)).toBe('10.1.2.3');
  });

  it('takes the nearest untrusted hop, so a client cannot forge its address by prepending', () => {
    const chain = parseTrustedProxies(['127.0.0.1', '10.0.0.0/8']);
    expect(clientAddressOf('127.0.0.1', '1.1.1.1, 203.0.113.7, 10.0.0.5', chain)).toBe(
      '203.0.113.7',
    );
    expect(clientAddressOf('127.0.0.1', 'not-an-ip, 10.0.0.5', chain)).toBe('10.0.0.5');
    expect(clientAddressOf('127.0.0.1', 'garbage', chain)).toBe('127.0.0.1');
    expect(clientAddressOf('127.0.0.1', '', chain)).toBe('127.0.0.1');
  });
});

describe('parseTrustedProxies', () => {
  it('accepts addresses and CIDR ranges of both families and refuses anything else', () => {
    const trusted = parseTrustedProxies(['10.0.0.0/8', 'fd00::/8', '192.0.2.1', 'none']);
    expect(['10.9.9.9', 'fd00::1', '192.0.2.1'].every((a) => trusted.has(a))).toBe(true);
    expect(['11.0.0.1', 'fe80::1', '192.0.2.2', 'x'].some((a) => trusted.has(a))).toBe(false);
    for (const bad of ['10.0.0.0/33', 'example.com', '10.0.0.0/x', '::1/129']) {
      expect(() => parseTrustedProxies([bad]), bad).toThrow(/not an IP address or CIDR range/);
    }
  });
});

describe('outcomeName', () => {
  it('is OK or the canonical upper snake code name', () => {
    expect(outcomeName(undefined)).toBe('OK');
    expect(outcomeName(Code.PermissionDenied)).toBe('PERMISSION_DENIED');
    expect(outcomeName(Code.Unauthenticated)).toBe('UNAUTHENTICATED');
    expect(outcomeName(Code.ResourceExhausted)).toBe('RESOURCE_EXHAUSTED');
    expect(outcomeName(Code.Canceled)).toBe('CANCELED');
  });
});

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { lookup as dnsLookupAsync } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { invalidArgument } from '../errors.js';

/**
 * Why an address may not be a webhook's destination, or null when it may: anything but a public
 * unicast address (loopback, private, link-local, unspecified, unique-local, CGNAT, multicast,
 * reserved…). An IPv4-mapped IPv6 address is judged as the IPv4 address it carries.
 */
export function refusedAddressReason(address: string): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? null : `${address} is a ${range} address`;
}

/**
 * At save: the URL's host, resolved now, must name only public addresses (unless the operator
 * allows private ones). InvalidArgument says which address was refused.
 */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidArgument('webhook.url', `${JSON.stringify(raw)} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw invalidArgument('webhook.url', 'must be an http:// or https:// URL');
  }
  if (url.username || url.password) {
    throw invalidArgument('webhook.url', 'must not carry a user name or password');
  }
  if (allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: LookupAddress[];
  try {
    addresses = ipaddr.isValid(host)
      ? [{ address: host, family: host.includes(':') ? 6 : 4 }]
      : await dnsLookupAsync(host, { all: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'lookup failed';
    throw invalidArgument('webhook.url', `its host ${host} does not resolve (${code})`);
  }
  for (const { address } of addresses) {
    const reason = refusedAddressReason(address);
    if (reason) {
      throw invalidArgument(
        'webhook.url',
        `its host ${host} resolves to a refused address (${reason}); such targets are refused unless ` +
          'STORE_NOTIFY_ALLOW_PRIVATE_TARGETS=true',
      );
    }
  }
  return url;
}

/**
 * At connect: the lookup the HTTP agent uses, which fails the connection when the address it is
 * about to connect to is refused. A name that resolved to a public address at save and to a
 * private one now (DNS rebinding) is caught here, on the address actually connected.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses;
      if (!allowPrivate) {
        for (const { address } of list) {
          const reason = refusedAddressReason(address);
          if (reason) {
            const refused = Object.assign(new Error(`refused destination: ${reason}`), {
              code: 'EREFUSEDTARGET',
            });
            return callback(refused, '', 0);
          }
        }
      }
      if (options.all) return callback(null, list);
      const first = list[0];
      if (!first)
        return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

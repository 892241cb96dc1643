import { BlockList, isIP } from 'node:net';

/** Addresses whose x-forwarded-for header is believed (STORE_TRUSTED_PROXIES). */
export interface TrustedProxies {
  has(address: string): boolean;
}

/** Strips an IPv4-mapped IPv6 prefix (::ffff:1.2.3.4 → 1.2.3.4) so one rule covers both. */
export function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? (mapped[1] as string) : address;
}

/**
 * Parses a list of addresses and CIDR ranges (`127.0.0.0/8, ::1`); `none` or an empty list
 * trusts no proxy. Throws with the entry named when one is neither.
 */
export function parseTrustedProxies(entries: readonly string[]): TrustedProxies {
  const list = new BlockList();
  for (const raw of entries) {
    const entry = raw.trim();
    if (entry === '' || entry === 'none') continue;
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address);
    const bits = prefix === undefined ? undefined : Number(prefix);
    const maxBits = family === 6 ? 128 : 32;
    if (
      family === 0 ||
      (bits !== undefined && (!/^\d{1,3}$/.test(prefix as string) || bits > maxBits))
    ) {
      throw new Error(`${JSON.stringify(entry)} is not an IP address or CIDR range`);
    }
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, bits, type);
  }
  return {
    has(address) {
      const value = plainAddress(address);
      const family = isIP(value);
      return family !== 0 && list.check(value, family === 6 ? 'ipv6' : 'ipv4');
    },
  };
}

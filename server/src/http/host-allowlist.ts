import { isIP } from 'node:net';
import { hostname } from 'node:os';

/**
 * Which Host (or :authority) values the server answers. DNS rebinding points an attacker's name
 * at this server, so a page of theirs becomes same-origin with the API and drives it with the
 * browser's reach (and, with STORE_TRUSTED_TENANT, as an admin). Such a request carries the
 * attacker's name in Host: refusing names that are not ours defeats it.
 *
 * Allowed by default: loopback names (`localhost`, `*.localhost`), this machine's host name, the
 * STORE_HOST name, and any IP literal (a browser sends an IP as Host only to an origin that is
 * that IP, which no rebinding can give a foreign page). `configured` adds names; a leading dot
 * (`.example.com`) allows every subdomain; `*` turns the check off.
 */
export function createHostAllowlist(
  configured: readonly string[],
  listenHost: string,
): (authority: string) => boolean {
  if (configured.includes('*')) return () => true;
  const exact = new Set(['localhost', hostname().toLowerCase()]);
  const suffixes = ['.localhost'];
  if (isIP(listenHost) === 0) exact.add(listenHost.toLowerCase());
  for (const name of configured) {
    if (name.startsWith('.')) suffixes.push(name);
    else exact.add(name);
  }
  return (authority) => {
    const host = hostOf(authority);
    if (host === undefined) return false;
    if (isIP(host) !== 0) return true;
    return exact.has(host) || suffixes.some((suffix) => host.endsWith(suffix));
  };
}

/** The host part of `host[:port]` or `[v6]:port`, lower-case, without a trailing dot. */
function hostOf(authority: string): string | undefined {
  const value = authority.trim().toLowerCase();
  const v6 = /^\[([0-9a-f:.]+)\](?::\d+)?$/.exec(value);
  if (v6) return v6[1];
  const match = /^([^:]+)(?::\d+)?$/.exec(value);
  return match?.[1]?.replace(/\.$/, '');
}

import { isIP } from 'node:net';
import { createContextKey } from '@connectrpc/connect';
import { plainAddress as plain, type TrustedProxies } from '../config/trusted-proxies.js';

/** The socket peer of a call, set by the listeners (connect's contextValues hook). */
const MAX_HOPS = 32;

export type { TrustedProxies };

export const peerAddressKey = createContextKey<string | undefined>(undefined, {
  description: 'the remote address of the connection the call came on',
});

/**
 * The caller's address: the socket peer, or — only when the peer is a trusted proxy — the
 * nearest address in x-forwarded-for that is not itself a trusted proxy (each proxy appends the
 * address it received the call from, so entries to the left of the last untrusted hop are the
 * client's own claims and are ignored).
 */
export function clientAddressOf(
  peer: string | undefined,
  forwardedFor: string | null,
  trusted: TrustedProxies,
): string {
  const socket = peer === undefined ? '' : plain(peer);
  if (forwardedFor === null || !trusted.has(socket)) return socket;
  const hops = forwardedFor
    .split(',')
    .slice(-MAX_HOPS)
    .map((hop) => plain(hop.trim()));
  let client = socket;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i] as string;
    if (isIP(hop) === 0) break;
    client = hop;
    if (!trusted.has(hop)) break;
  }
  return client;
}

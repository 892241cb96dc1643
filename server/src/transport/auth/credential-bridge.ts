import type { CallInfo } from './authorization-context.js';
import type { StoreApiOptions } from './options.js';

/**
 * Turns a call into a credential, or null for an anonymous caller (spec 000/001, Rules 6–7). A
 * host may register its own (client certificate, signed edge header, pre-resolved principal).
 */
export interface CredentialBridge {
  resolve(call: CallInfo): string | null;
}

/** The built-in bridge: one header, with a case-insensitive scheme prefix stripped. */
export function headerCredentialBridge(
  options: Pick<StoreApiOptions, 'credentialHeaderName' | 'credentialScheme'>,
): CredentialBridge {
  const header = options.credentialHeaderName.toLowerCase();
  const prefix = `${options.credentialScheme.toLowerCase()} `;
  return {
    resolve(call) {
      const raw = call.requestHeader.get(header);
      if (raw === null) return null;
      const value = raw.trim();
      // A present header is never anonymous: an empty or oddly framed one is a bad credential.
      return value.toLowerCase().startsWith(prefix) ? value.slice(prefix.length).trim() : value;
    },
  };
}

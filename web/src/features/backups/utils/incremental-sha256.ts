/**
 * A SHA-256 fed chunk by chunk, for an export that never holds all its bytes (WebCrypto digests
 * only a whole buffer). hash-wasm's WebAssembly SHA-256 runs 2-3× the pure-JS one on this
 * machine (docs/performance.md, row 20); where WebAssembly cannot be compiled (a proxy's CSP
 * without 'wasm-unsafe-eval'), @noble/hashes does the same in JavaScript.
 */

import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { createSHA256 } from 'hash-wasm';

export interface IncrementalSha256 {
  update(bytes: Uint8Array): void;
  /** The digest of everything given, lower-case hex; the hash is spent afterwards. */
  hex(): string;
}

export type Sha256Engine = 'wasm' | 'js';

function jsSha256(): IncrementalSha256 {
  const hash = sha256.create();
  return {
    update: (bytes) => void hash.update(bytes),
    hex: () => bytesToHex(hash.digest()),
  };
}

/** The WebAssembly SHA-256 where it can be compiled, else the JavaScript one. */
export async function incrementalSha256(engine: Sha256Engine = 'wasm'): Promise<IncrementalSha256> {
  if (engine === 'js') return jsSha256();
  try {
    const hash = await createSHA256();
    hash.init();
    return {
      update: (bytes) => void hash.update(bytes),
      hex: () => hash.digest('hex'),
    };
  } catch {
    // WebAssembly refused (CSP, or a browser without it): slower, same digest.
    return jsSha256();
  }
}

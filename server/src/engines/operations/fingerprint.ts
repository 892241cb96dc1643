import { createHash } from 'node:crypto';

/** sha256 (hex) of kind and canonical request: what makes a tracking id's reuse "the same". */
export function requestFingerprint(kind: string, canonicalRequestJson: string): string {
  return createHash('sha256').update(kind).update('\n').update(canonicalRequestJson).digest('hex');
}

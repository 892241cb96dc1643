import type { AuditRecord } from '../../storage/audit/audit-store.js';

/** The stored fields of an audit record that a caller's input can make long. */
export type AuditTextField =
  'tenant' | 'subject' | 'service' | 'method' | 'targetId' | 'outcome' | 'clientAddress' | 'detail';

/**
 * The longest each field is stored and read, in UTF-16 code units (docs/security.md, "Audit trail
 * limits"). A caller chooses a target id (a tree id may be megabytes), a credential's subject and
 * the forwarded address; kept whole, one refused call could store megabytes for a year and make
 * a page of ten records larger than the message limit.
 */
export const AUDIT_FIELD_MAX: Readonly<Record<AuditTextField, number>> = {
  tenant: 128,
  subject: 256,
  service: 128,
  method: 128,
  targetId: 512,
  outcome: 64,
  clientAddress: 64,
  detail: 500,
};

/** The longest a target's name is stored (a backup's name, kept when the call destroys it). */
export const AUDIT_TARGET_NAME_MAX = 512;

export const AUDIT_TEXT_FIELDS = Object.keys(AUDIT_FIELD_MAX) as readonly AuditTextField[];

/**
 * `value` cut to `max` code units, marked when cut: a trailing "…" and the original length, so a
 * reader of the trail knows the field was longer ("tree-aaaa… [4000000 chars]"). `fullLength`
 * is the length as stored, when the value handed in is already a prefix (a read cut in SQL).
 */
export function truncateField(value: string, max: number, fullLength = value.length): string {
  if (fullLength <= max && value.length <= max) return value;
  const mark = `… [${Math.max(fullLength, value.length)} chars]`;
  let head = value.slice(0, Math.max(0, max - mark.length));
  // Never end on half of a surrogate pair: the record is UTF-8 on the wire.
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  return `${head}${mark}`;
}

/** The record with every text field cut to its AUDIT_FIELD_MAX. */
export function truncateRecordFields<T extends Pick<AuditRecord, AuditTextField>>(
  record: T,
  fullLengths: Partial<Record<AuditTextField, number>> = {},
): T {
  const cut = { ...record };
  const named = cut as { targetName?: string | null };
  if (typeof named.targetName === 'string') {
    named.targetName = truncateField(named.targetName, AUDIT_TARGET_NAME_MAX);
  }
  for (const field of AUDIT_TEXT_FIELDS) {
    const value = record[field];
    if (value === null) continue;
    (cut as Record<AuditTextField, string | null>)[field] = truncateField(
      value,
      AUDIT_FIELD_MAX[field],
      fullLengths[field],
    );
  }
  return cut;
}

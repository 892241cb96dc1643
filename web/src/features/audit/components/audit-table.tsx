import type { AuditRecord } from '@store/contract';
import { Fragment, useState } from 'react';
import { SubjectName } from '../../../components/identity/subject-name';
import { useSubjectName } from '../../../lib/identity/use-subject-name';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Term } from '../../../components/ui/term';
import { Time } from '../../../components/ui/time';
import { rpcMethodWords, statusCodeWords } from '../../../lib/words';
import { AuditRecordDetail } from './audit-record-detail';

const REFUSALS = new Set(['UNAUTHENTICATED', 'PERMISSION_DENIED', 'RESOURCE_EXHAUSTED']);

function outcomeTone(outcome: string): BadgeTone {
  if (outcome === 'OK') return 'success';
  return REFUSALS.has(outcome) ? 'danger' : 'warning';
}

const HEADERS = ['Time', 'Who', 'Action', 'Target', 'Outcome'] as const;

/**
 * The audit records, newest first, in words (the raw RPC and code on hover); each row opens its
 * detail (target, request, outcome, detail) right below it.
 */
export function AuditTable({ records }: { records: readonly AuditRecord[] }) {
  const [open, setOpen] = useState<string | null>(null);
  return (
    <div className="table-wrap">
      <table className="table table--stack audit-table">
        <caption className="visually-hidden">Audit records, newest first</caption>
        <thead>
          <tr>
            {HEADERS.map((header) => (
              <th key={header} scope="col">
                {header}
              </th>
            ))}
            <th scope="col">
              <span className="visually-hidden">Detail</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {records.map((r) => {
            const expanded = open === r.recordId;
            const detailId = `audit-detail-${r.recordId}`;
            return (
              <Fragment key={r.recordId}>
                <tr data-record={r.recordId}>
                  <td data-label="Time">
                    <Time value={r.time} />
                  </td>
                  <td data-label="Who">
                    <SubjectName subject={r.subject} />
                  </td>
                  <td data-label="Action">
                    <Term term={rpcMethodWords(`${r.service}/${r.method}`)} />
                  </td>
                  <td data-label="Target">
                    <AuditTarget record={r} />
                  </td>
                  <td data-label="Outcome">
                    <span title={r.detail || undefined}>
                      <Badge tone={outcomeTone(r.outcome)}>
                        <Term term={statusCodeWords(r.outcome)} />
                      </Badge>
                    </span>
                  </td>
                  <td>
                    <button
                      type="button"
                      className="link-button"
                      aria-expanded={expanded}
                      aria-controls={expanded ? detailId : undefined}
                      onClick={() => setOpen(expanded ? null : r.recordId)}
                    >
                      {expanded ? 'Hide detail' : 'Detail'}
                      <span className="visually-hidden">
                        {' '}
                        of {rpcMethodWords(r.method).words} by{' '}
                        {r.subject ? <SubjectText subject={r.subject} /> : 'an unknown caller'}
                      </span>
                    </button>
                  </td>
                </tr>
                {expanded && (
                  <tr id={detailId} className="audit-table__detail">
                    <td colSpan={HEADERS.length + 1}>
                      <AuditRecordDetail record={r} />
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** The record's target by name when the server named it (its id on hover), else its id. */
function AuditTarget({ record }: { record: AuditRecord }) {
  if (!record.targetId) return <span className="muted">—</span>;
  if (record.targetName) {
    return (
      <span className="truncate" title={`${record.targetName} (${record.targetId})`}>
        {record.targetName}
      </span>
    );
  }
  return (
    <span className="truncate mono" title={record.targetId}>
      {record.targetId}
    </span>
  );
}

/** A subject's name as plain text (the hidden part of a "Detail" button's name). */
function SubjectText({ subject }: { subject: string }) {
  return <>{useSubjectName(subject).name}</>;
}

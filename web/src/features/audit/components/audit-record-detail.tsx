import type { AuditRecord } from '@store/contract';
import { SubjectName } from '../../../components/identity/subject-name';
import { Term } from '../../../components/ui/term';
import { Time } from '../../../components/ui/time';
import { rpcMethodWords, rpcServiceWords, statusCodeWords } from '../../../lib/words';

/** What a call asked for, in one sentence from what the trail recorded. */
export function requestSummary(record: AuditRecord): string {
  const action = rpcMethodWords(record.method).words;
  const service = rpcServiceWords(record.service).words.toLowerCase();
  if (record.targetName) return `${action} on “${record.targetName}” (${service})`;
  return record.targetId
    ? `${action} on ${record.targetId} (${service})`
    : `${action} (${service}), no single target`;
}

/** One audit record in full: who, what on which target, the outcome and its detail. */
export function AuditRecordDetail({ record }: { record: AuditRecord }) {
  return (
    <dl className="facts audit-detail">
      <dt>When</dt>
      <dd>
        <Time value={record.time} />
      </dd>
      <dt>Who</dt>
      <dd>
        <SubjectName subject={record.subject} />
      </dd>
      <dt>Request</dt>
      <dd>{requestSummary(record)}</dd>
      <dt>Action</dt>
      <dd>
        <Term term={rpcMethodWords(record.method)} />{' '}
        <span className="mono muted">
          {record.service}/{record.method}
        </span>
      </dd>
      <dt>Target</dt>
      {record.targetName ? (
        <dd>
          {record.targetName} <span className="mono muted">{record.targetId}</span>
        </dd>
      ) : (
        <dd className="mono">{record.targetId || '—'}</dd>
      )}
      <dt>Outcome</dt>
      <dd>
        <Term term={statusCodeWords(record.outcome)} />{' '}
        <span className="mono muted">{record.outcome}</span>
      </dd>
      <dt>Detail</dt>
      <dd className="audit-detail__text">{record.detail || '—'}</dd>
      <dt>Client address</dt>
      <dd className="mono">{record.clientAddress || '—'}</dd>
      <dt>Record</dt>
      <dd className="mono">{record.recordId}</dd>
    </dl>
  );
}

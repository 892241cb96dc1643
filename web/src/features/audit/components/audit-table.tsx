import type { AuditRecord } from '@store/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Table, type Column } from '../../../components/ui/table';
import { Term } from '../../../components/ui/term';
import { Time } from '../../../components/ui/time';
import { rpcMethodWords, statusCodeWords } from '../../../lib/words';

const REFUSALS = new Set(['UNAUTHENTICATED', 'PERMISSION_DENIED', 'RESOURCE_EXHAUSTED']);

function outcomeTone(outcome: string): BadgeTone {
  if (outcome === 'OK') return 'success';
  return REFUSALS.has(outcome) ? 'danger' : 'warning';
}

const dash = <span className="muted">—</span>;

const columns: readonly Column<AuditRecord>[] = [
  { id: 'time', header: 'Time', cell: (r) => <Time value={r.time} /> },
  { id: 'subject', header: 'Subject', cell: (r) => r.subject || dash },
  {
    id: 'method',
    header: 'Action',
    cell: (r) => <Term term={rpcMethodWords(`${r.service}/${r.method}`)} />,
  },
  { id: 'target', header: 'Target', cell: (r) => r.targetId || dash },
  {
    id: 'outcome',
    header: 'Outcome',
    cell: (r) => (
      <span title={r.detail || undefined}>
        <Badge tone={outcomeTone(r.outcome)}>
          <Term term={statusCodeWords(r.outcome)} />
        </Badge>
      </span>
    ),
  },
  { id: 'client', header: 'Client address', cell: (r) => r.clientAddress || dash },
];

/** The audit records as a table, newest first; the refusal's message is on the outcome's hover. */
export function AuditTable({ records }: { records: readonly AuditRecord[] }) {
  return (
    <Table
      caption="Audit records, newest first"
      captionHidden
      columns={columns}
      rows={records}
      rowKey={(r) => r.recordId}
    />
  );
}

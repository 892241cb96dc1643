import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { formatCount } from '../../../lib/format';
import { useActiveTenant, useApi } from '../../../lib/services';
import {
  auditCsv,
  auditJsonLines,
  exportFileName,
  fetchAllAuditRecords,
  resolveSubjectNames,
  type AuditExportFormat,
} from '../utils/audit-export';
import type { AuditFilters } from '../utils/audit-filters';

function download(text: string, fileName: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // After the click has handed the blob to the download.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Exports every record the filters match (all pages, not the loaded ones) as CSV or JSON Lines. */
export function AuditExport({ filters }: { filters: AuditFilters }) {
  const api = useApi();
  const tenant = useActiveTenant();
  const [running, setRunning] = useState<AuditExportFormat | null>(null);
  const [read, setRead] = useState(0);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  const run = async (format: AuditExportFormat) => {
    setRunning(format);
    setRead(0);
    setDone(null);
    setError(null);
    try {
      const records = await fetchAllAuditRecords(
        (request) => api.identity.listAuditRecords(request),
        filters,
        setRead,
      );
      const names = await resolveSubjectNames(
        async (subjects) => (await api.identity.resolveSubjects({ subjects })).subjects,
        records,
      );
      const fileName = exportFileName(tenant, format);
      if (format === 'csv') download(auditCsv(records, names), fileName, 'text/csv');
      else download(auditJsonLines(records, names), fileName, 'application/x-ndjson');
      const noun = records.length === 1 ? 'record' : 'records';
      setDone(`${formatCount(records.length)} ${noun} saved as ${fileName}.`);
    } catch (caught) {
      setError(caught);
    } finally {
      setRunning(null);
    }
  };

  return (
    <div className="audit-export">
      <div className="inline-form__actions">
        <Button
          busy={running === 'csv'}
          disabled={running !== null}
          onClick={() => void run('csv')}
        >
          Export CSV
        </Button>
        <Button
          busy={running === 'jsonl'}
          disabled={running !== null}
          onClick={() => void run('jsonl')}
        >
          Export JSON Lines
        </Button>
      </div>
      <p className="muted" role="status">
        {running
          ? `Reading the filtered records… ${formatCount(read)} so far.`
          : (done ?? 'Exports every record matching the filters, not only the rows shown.')}
      </p>
      {error !== null && <ErrorBanner title="Could not export the audit records" error={error} />}
    </div>
  );
}

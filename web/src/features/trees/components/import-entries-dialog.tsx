import { useId, useState, type SubmitEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { Dialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { formatCount } from '../../../lib/format';
import { overLengthError } from '../../../lib/forms/length-limit';
import { useActiveTenant } from '../../../lib/services';
import { useImportEntries } from '../api/use-import-entries';
import { ImportReportView } from './import-report';

const TREE_NAME = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Import a JSON Lines file into a tree (created by its first entry): one
 * `{"key": "…", "value": …}` object per line, or an exported backup artifact as downloaded
 * (gzip, `{"key", "valueJson", …}` lines), streamed from the file in PutEntries batches with
 * a progress bar by bytes, cancellable, and a report of every line that was not written.
 */
export function ImportEntriesDialog({ onClose }: { onClose: () => void }) {
  const formId = useId();
  const tenant = useActiveTenant();
  const [treeId, setTreeId] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [touched, setTouched] = useState(false);
  const importer = useImportEntries(treeId);
  const { state } = importer;
  const running = state.phase === 'running';

  const treeError =
    treeId === ''
      ? 'Enter the tree to import into'
      : (overLengthError(treeId, 128, 'A tree name') ??
        (TREE_NAME.test(treeId) && treeId !== '.' && treeId !== '..'
          ? null
          : 'Tree names are 1–128 letters, digits, dots, dashes and underscores'));
  const fileError = file ? null : 'Choose a .jsonl file or an exported artifact';

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    setTouched(true);
    if (treeError || fileError || !file) return;
    void importer.start(file);
  };
  const close = () => {
    importer.cancel();
    onClose();
  };

  return (
    <Dialog
      open
      title="Import entries from JSON Lines"
      onClose={close}
      footer={
        running ? (
          // Keyed apart: the running import's Cancel must never be the Start button reused.
          <DialogActions
            key="running"
            primary={
              <Button variant="danger" onClick={importer.cancel}>
                Cancel import
              </Button>
            }
          />
        ) : (
          <DialogActions
            key="idle"
            dismiss={<Button onClick={close}>Close</Button>}
            primary={
              <Button type="submit" form={formId} variant="primary">
                {state.phase === 'done' ? 'Import another file' : 'Start import'}
              </Button>
            }
          />
        )
      }
    >
      <form id={formId} className="stack" onSubmit={submit} noValidate>
        <p className="muted">
          One JSON object per line, <span className="mono">{'{"key": "…", "value": …}'}</span>, or
          an exported backup artifact as downloaded (gzip is read as it is), into tenant{' '}
          <strong>{tenant}</strong>. Existing keys are replaced; the tree&apos;s schema policy
          applies to every entry.
        </p>
        <Field label="Tree" error={touched ? treeError : null}>
          {(control) => (
            <input
              {...control}
              className="input mono"
              value={treeId}
              disabled={running}
              spellCheck={false}
              autoComplete="off"
              onChange={(event) => setTreeId(event.target.value)}
            />
          )}
        </Field>
        <Field label="JSON Lines file" error={touched ? fileError : null}>
          {(control) => (
            <input
              {...control}
              type="file"
              accept=".jsonl,.ndjson,.json,.txt,.gz,application/x-ndjson,application/jsonl,application/gzip"
              disabled={running}
              onChange={(event) => {
                setFile(event.target.files?.[0] ?? null);
                importer.reset();
              }}
            />
          )}
        </Field>
      </form>
      {state.phase === 'running' && (
        <div className="stack" aria-live="polite">
          <ProgressBar
            label="Import progress"
            done={state.progress.bytesDone}
            total={state.progress.totalBytes}
            unit="bytes"
          />
          <p className="muted" data-testid="import-counts">
            {formatCount(state.progress.written)} written,{' '}
            {formatCount(state.progress.deadLettered)} dead-lettered,{' '}
            {formatCount(state.progress.refused)} refused
          </p>
        </div>
      )}
      {state.phase === 'done' && <ImportReportView treeId={treeId} report={state.report} />}
    </Dialog>
  );
}

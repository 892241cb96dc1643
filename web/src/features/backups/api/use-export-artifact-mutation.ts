import { BackupControlService } from '@store/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { formatBytes } from '../../../lib/format';
import { serviceKey } from '../../../lib/query-keys';
import { useApi, useToast } from '../../../lib/services';
import {
  artifactFileName,
  DownloadMismatchError,
  streamToSink,
  type ExpectedArtifact,
} from '../utils/artifact-download';
import { blobPartsSink, canPickSaveFile, pickFileSink } from '../utils/download-sinks';

/** Progress redraws at most this often: a chunk arrives every few ms, a person reads ~10 a second. */
const PROGRESS_EVERY_MS = 100;

/** `report`, called at most once per `ms` (the first call always goes through). */
function atMostEvery(ms: number, report: (bytes: number) => void): (bytes: number) => void {
  let last = -Infinity;
  return (bytes) => {
    const now = performance.now();
    if (now - last < ms) return;
    last = now;
    report(bytes);
  };
}

/** How an export ended without an error: saved, or stopped by the admin. */
export type ExportOutcome =
  | { saved: true; size: number; fileName: string }
  | { saved: false; reason: 'no file chosen' }
  | { saved: false; reason: 'cancelled'; leftOnDisk?: string };

/**
 * Streams one artifact through ExportArtifact to a file, with the bytes received so far for a
 * progress bar and `cancel` to stop it. Where the browser can, the admin picks the file first and
 * the bytes are written to it as they come; elsewhere they become Blob parts saved as one
 * download at the end (utils/download-sinks.ts). Either way the tab holds one window of bytes at
 * a time, and the file is kept only when size and SHA-256 are the manifest's. The server hashes
 * them too as it streams, and records a full backup's verified export as a check of the backup.
 */
export function useExportArtifactMutation(backupId: string) {
  const api = useApi();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [bytesReceived, setBytesReceived] = useState(0);
  const running = useRef<AbortController | null>(null);
  const mutation = useMutation({
    mutationFn: async (artifact: ExpectedArtifact): Promise<ExportOutcome> => {
      setBytesReceived(0);
      const fileName = artifactFileName(backupId, artifact.artifactId);
      // The picker comes first, while the click that started the export still counts as the
      // user's gesture.
      const sink = canPickSaveFile() ? await pickFileSink(fileName) : blobPartsSink(fileName);
      if (!sink) return { saved: false, reason: 'no file chosen' };
      const controller = new AbortController();
      running.current = controller;
      try {
        const chunks = api.backup.exportArtifact(backupId, artifact.artifactId, {
          signal: controller.signal,
        });
        // A render per chunk would be hundreds a download, each a task on the thread that reads
        // the stream; the bar needs a few updates a second.
        const progress = atMostEvery(PROGRESS_EVERY_MS, setBytesReceived);
        const download = await streamToSink(chunks, sink, artifact, progress);
        return { saved: true, size: download.size, fileName };
      } catch (error) {
        if (controller.signal.aborted)
          return { saved: false, reason: 'cancelled', leftOnDisk: sink.leftOnDisk };
        // A mismatch says it itself; any other failure (the server finding its stored copy
        // damaged, a lost connection) leaves the picked file behind too.
        if (sink.leftOnDisk && !(error instanceof DownloadMismatchError)) {
          toast({
            tone: 'warning',
            title: `Delete ${sink.leftOnDisk}`,
            detail: `The export of ${artifact.artifactId} did not finish, so that file is not a copy of it.`,
          });
        }
        throw error;
      } finally {
        running.current = null;
      }
    },
    meta: { errorTitle: 'Export failed' },
    onSuccess: (outcome, artifact) => {
      if (!outcome.saved) {
        if (outcome.reason === 'cancelled') {
          toast({
            tone: 'info',
            title: `Export of ${artifact.artifactId} cancelled`,
            ...(outcome.leftOnDisk && {
              detail: `Delete ${outcome.leftOnDisk}: it holds no copy of the artifact.`,
            }),
          });
        }
        return;
      }
      toast({
        tone: 'success',
        title: `Downloaded ${artifact.artifactId}`,
        detail: `${formatBytes(outcome.size)} in ${outcome.fileName}, SHA-256 verified against the manifest`,
      });
      // The server may have recorded the export as the backup's check (a full backup's only
      // artifact): the page's "last verified" and health report are read again.
      void queryClient.invalidateQueries({ queryKey: serviceKey(BackupControlService) });
    },
  });
  const cancel = useCallback(() => running.current?.abort(), []);
  return { ...mutation, bytesReceived, cancel };
}

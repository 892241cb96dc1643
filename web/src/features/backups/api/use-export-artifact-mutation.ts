import { BackupControlService } from '@store/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { formatBytes } from '../../../lib/format';
import { serviceKey } from '../../../lib/query-keys';
import { useApi, useToast } from '../../../lib/services';
import {
  artifactFileName,
  collectChunks,
  saveBlob,
  verifyDownload,
  type ExpectedArtifact,
} from '../utils/artifact-download';

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

/**
 * Streams one artifact through ExportArtifact into a browser download, with the bytes received
 * so far for a progress bar. The bytes are saved only when their size and SHA-256 are the
 * manifest's; otherwise the export fails with what differed. The server hashes them too as it
 * streams, and records a full backup's verified export as a check of the backup.
 */
export function useExportArtifactMutation(backupId: string) {
  const api = useApi();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [bytesReceived, setBytesReceived] = useState(0);
  const mutation = useMutation({
    mutationFn: async (artifact: ExpectedArtifact) => {
      setBytesReceived(0);
      const chunks = api.backup.exportArtifact(backupId, artifact.artifactId);
      // A render per chunk would be hundreds a download, each a task on the thread that reads
      // the stream; the bar needs a few updates a second.
      const progress = atMostEvery(PROGRESS_EVERY_MS, setBytesReceived);
      const download = await collectChunks(chunks, progress, Number(artifact.byteSize));
      verifyDownload(download, artifact);
      saveBlob(download.blob, artifactFileName(backupId, artifact.artifactId));
      return download.blob.size;
    },
    meta: { errorTitle: 'Export failed' },
    onSuccess: (size, artifact) => {
      toast({
        tone: 'success',
        title: `Downloaded ${artifact.artifactId}`,
        detail: `${formatBytes(size)}, SHA-256 verified against the manifest`,
      });
      // The server may have recorded the export as the backup's check (a full backup's only
      // artifact): the page's "last verified" and health report are read again.
      void queryClient.invalidateQueries({ queryKey: serviceKey(BackupControlService) });
    },
  });
  return { ...mutation, bytesReceived };
}

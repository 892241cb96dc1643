import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { formatBytes } from '../../../lib/format';
import { useApi, useToast } from '../../../lib/services';
import { artifactFileName, collectChunks, saveBlob } from '../api/artifact-download';

/**
 * Streams one artifact through ExportArtifact into a browser download, with the bytes received
 * so far for a progress bar.
 */
export function useExportArtifact(backupId: string) {
  const api = useApi();
  const toast = useToast();
  const [bytesReceived, setBytesReceived] = useState(0);
  const mutation = useMutation({
    mutationFn: async (artifactId: string) => {
      setBytesReceived(0);
      const chunks = api.backup.exportArtifact(backupId, artifactId);
      const blob = await collectChunks(chunks, setBytesReceived);
      saveBlob(blob, artifactFileName(backupId, artifactId));
      return blob.size;
    },
    meta: { errorTitle: 'Export failed' },
    onSuccess: (size, artifactId) =>
      toast({ tone: 'success', title: `Downloaded ${artifactId}`, detail: formatBytes(size) }),
  });
  return { ...mutation, bytesReceived };
}

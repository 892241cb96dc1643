import { SchemaControlService, TreeDataService } from '@store/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { serviceKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';
import { importJsonLines, type ImportProgress, type ImportReport } from './json-lines-import';

export type ImportState =
  | { phase: 'idle' }
  | { phase: 'running'; progress: ImportProgress }
  | { phase: 'done'; report: ImportReport };

/**
 * A JSON Lines import into one tree: start(file), a progress by bytes while it runs, cancel(),
 * and the report at the end. The tree lists are refreshed when it ends, however it ends.
 */
export function useImportEntries(treeId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [state, setState] = useState<ImportState>({ phase: 'idle' });
  const controller = useRef<AbortController | null>(null);

  // Leaving the page stops the import (its unanswered calls are aborted).
  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(
    async (file: File) => {
      const abort = new AbortController();
      controller.current = abort;
      setState({
        phase: 'running',
        progress: {
          bytesDone: 0,
          totalBytes: file.size,
          linesRead: 0,
          written: 0,
          deadLettered: 0,
          refused: 0,
        },
      });
      const report = await importJsonLines({
        file,
        signal: abort.signal,
        putEntries: async (entries, signal) =>
          (await api.data.putEntries({ treeId, entries }, { signal })).results,
        onProgress: (progress) => {
          if (controller.current === abort) setState({ phase: 'running', progress });
        },
      });
      if (controller.current === abort) {
        controller.current = null;
        setState({ phase: 'done', report });
      }
      void queryClient.invalidateQueries({ queryKey: serviceKey(TreeDataService) });
      void queryClient.invalidateQueries({ queryKey: serviceKey(SchemaControlService) });
    },
    [api, queryClient, treeId],
  );

  const cancel = useCallback(() => controller.current?.abort(), []);
  const reset = useCallback(() => setState({ phase: 'idle' }), []);
  return { state, start, cancel, reset };
}

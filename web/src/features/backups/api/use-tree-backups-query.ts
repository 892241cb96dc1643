import { BackupControlService } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';

/** How many of a tree's newest backups the base picker offers. */
const BASE_CHOICES = 200;

/** The newest backups of one tree: the choices for an incremental's base. */
export function useTreeBackupsQuery(treeId: string) {
  const api = useApi();
  const request = { treeId, pageSize: BASE_CHOICES };
  return useQuery({
    queryKey: rpcKey(BackupControlService.method.listBackups, request),
    queryFn: ({ signal }) => api.backup.listBackups(request, { signal }),
    enabled: treeId !== '',
    select: (page) => page.backups,
  });
}

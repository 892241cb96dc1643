import { SchemaControlService } from '@store/contract';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useTrackOperation } from '../../../lib/operations/use-track-operation';
import { rpcKey } from '../../../lib/query-keys';
import { useApi, useToast } from '../../../lib/services';
import type { VersionConfigInit } from '../utils/version-config-draft';

function versionConfigKey(treeId: string) {
  return rpcKey(SchemaControlService.method.getVersionConfig, { treeId });
}

function invalidateVersionConfig(queryClient: QueryClient, treeId: string) {
  return queryClient.invalidateQueries({ queryKey: versionConfigKey(treeId) });
}

/** The tree's version config; null when it has none. */
export function useGetVersionConfigQuery(treeId: string) {
  const api = useApi();
  return useQuery({
    queryKey: versionConfigKey(treeId),
    queryFn: ({ signal }) => api.schema.getVersionConfig(treeId, { signal }),
  });
}

/** SetVersionConfig; the server's InvalidArgument shows in the form. */
export function useSetVersionConfigMutation(treeId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (config: VersionConfigInit) => api.schema.setVersionConfig(treeId, config),
    meta: { silent: true },
    onSuccess: async () => {
      toast({ tone: 'success', title: `Version config set on ${treeId}` });
      await invalidateVersionConfig(queryClient, treeId);
    },
  });
}

export function useClearVersionConfigMutation(treeId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: () => api.schema.clearVersionConfig(treeId),
    meta: { errorTitle: 'Clearing the version config failed' },
    onSuccess: async (removed) => {
      toast({
        tone: 'success',
        title: removed ? `Version config cleared on ${treeId}` : `${treeId} had no version config`,
      });
      await invalidateVersionConfig(queryClient, treeId);
    },
  });
}

/** AdvanceTargetVersion; a refusal (below current: FailedPrecondition) shows by the field. */
export function useAdvanceTargetVersionMutation(treeId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (newTarget: number) => api.schema.advanceTargetVersion(treeId, newTarget),
    meta: { silent: true },
    onSuccess: async (config) => {
      toast({
        tone: 'success',
        title: `Target version of ${treeId} is now ${config?.targetVersion ?? '?'}`,
      });
      await invalidateVersionConfig(queryClient, treeId);
    },
  });
}

/**
 * StartMigration, or StartAdvanceAndMigrate when a new target is given. Both are tracked: the
 * tray follows the run; a refusal up front (a gap in the chain) shows in the section.
 */
export function useStartMigrationMutation(treeId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const track = useTrackOperation();
  return useMutation({
    mutationFn: (newTarget: number | undefined) =>
      newTarget === undefined
        ? api.schema.startMigration(treeId)
        : api.schema.startAdvanceAndMigrate(treeId, newTarget),
    meta: { silent: true },
    onSuccess: async (handle) => {
      track(handle);
      await Promise.all([
        invalidateVersionConfig(queryClient, treeId),
        queryClient.invalidateQueries({
          queryKey: rpcKey(SchemaControlService.method.getRemediationStatus, { treeId }),
        }),
      ]);
    },
  });
}

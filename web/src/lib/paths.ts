/** Route paths, so links between pages do not need to import the page's feature. */
export const paths = {
  dashboard: '/',
  signIn: '/sign-in',
  authCallback: '/auth/callback',
  backups: '/backups',
  backup: (backupId: string) => `/backups/${encodeURIComponent(backupId)}`,
  /** Compare two backups of one tree (`from` is the older). */
  backupCompare: (from: string, to: string) =>
    `/backups/compare?${new URLSearchParams({ from, to }).toString()}`,
  operations: '/operations',
  operation: (operationId: string) => `/operations/${encodeURIComponent(operationId)}`,
  schedules: '/schedules',
  /** The schedules of one scope (tree + key prefix, '' for the whole tree). */
  scheduleScope: (treeId: string, keyPrefix: string) =>
    `/schedules?${new URLSearchParams({ tree: treeId, ...(keyPrefix !== '' && { prefix: keyPrefix }) }).toString()}`,
  /** The retention rules of one scope, their live preview and apply. */
  retention: (treeId: string, keyPrefix: string) =>
    `/retention?${new URLSearchParams({ tree: treeId, ...(keyPrefix !== '' && { prefix: keyPrefix }) }).toString()}`,
  /** Every schedule of the tenant. */
  schedulesOverview: '/schedules/overview',
  health: '/health',
  trees: '/trees',
  tree: (treeId: string) => `/trees/${encodeURIComponent(treeId)}`,
  schema: '/schema',
  schemaTree: (treeId: string) => `/schema/${encodeURIComponent(treeId)}`,
  maintenance: '/maintenance',
  /** Notification channels, their delivery logs and test sends. */
  notifications: '/notifications',
  audit: '/audit',
} as const;

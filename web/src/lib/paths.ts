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
  health: '/health',
  trees: '/trees',
  tree: (treeId: string) => `/trees/${encodeURIComponent(treeId)}`,
  schema: '/schema',
  schemaTree: (treeId: string) => `/schema/${encodeURIComponent(treeId)}`,
  maintenance: '/maintenance',
  audit: '/audit',
} as const;

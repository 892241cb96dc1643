/** Route paths, so links between pages do not need to import the page's feature. */
export const paths = {
  dashboard: '/',
  signIn: '/sign-in',
  authCallback: '/auth/callback',
  backups: '/backups',
  backup: (backupId: string) => `/backups/${encodeURIComponent(backupId)}`,
  operations: '/operations',
  operation: (operationId: string) => `/operations/${encodeURIComponent(operationId)}`,
  schedules: '/schedules',
  health: '/health',
  trees: '/trees',
  tree: (treeId: string) => `/trees/${encodeURIComponent(treeId)}`,
  schema: '/schema',
  schemaTree: (treeId: string) => `/schema/${encodeURIComponent(treeId)}`,
  maintenance: '/maintenance',
} as const;

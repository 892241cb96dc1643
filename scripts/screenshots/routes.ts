import type { Seeded } from './seed';

/** One page of the walk: a route opened with real ids, saved as `<name>-<size>.png`. */
export interface Shot {
  /** The route's pattern in web/src/app/routes.tsx; 'index' is the dashboard. */
  pattern: string;
  name: string;
  url: string;
  /** The page's main heading once its data is in. */
  heading: string | RegExp;
  signedOut?: boolean;
  /** An element that is gone once the page has settled (a diff still running). */
  gone?: string;
}

/** Every route of the console, some twice (a detail page in two states), with seeded data. */
export function shots(seeded: Seeded): Shot[] {
  const { baselineId, incrementalId } = seeded;
  return [
    {
      pattern: '/sign-in',
      name: 'sign-in',
      url: '/sign-in',
      heading: 'Store Admin Console',
      signedOut: true,
    },
    {
      pattern: '/auth/callback',
      name: 'auth-callback',
      url: '/auth/callback',
      heading: /./,
      signedOut: true,
    },
    { pattern: 'index', name: 'dashboard', url: '/', heading: 'Dashboard' },
    { pattern: 'backups', name: 'backups', url: '/backups', heading: 'Backups' },
    {
      pattern: 'backups/compare',
      name: 'backup-compare',
      url: `/backups/compare?from=${baselineId}&to=${incrementalId}`,
      heading: 'Compare backups',
      gone: '[aria-label="Backup diff running"]',
    },
    {
      pattern: 'backups/:backupId',
      name: 'backup-full',
      url: `/backups/${baselineId}`,
      heading: /customers full baseline/,
    },
    {
      pattern: 'backups/:backupId',
      name: 'backup-incremental',
      url: `/backups/${incrementalId}`,
      heading: /customers after/,
    },
    { pattern: 'operations', name: 'operations', url: '/operations', heading: 'Operations' },
    {
      pattern: 'operations/:operationId',
      name: 'operation-capture',
      url: `/operations/${seeded.captureOperationId}`,
      heading: /./,
    },
    {
      pattern: 'operations/:operationId',
      name: 'operation-restore-preview',
      url: `/operations/${seeded.previewOperationId}`,
      heading: /./,
    },
    {
      pattern: 'operations/:operationId',
      name: 'operation-running',
      url: `/operations/${seeded.runningOperationId}`,
      heading: /./,
    },
    { pattern: 'schedules', name: 'schedules', url: '/schedules', heading: 'Schedules' },
    {
      pattern: 'schedules',
      name: 'schedules-customers',
      url: '/schedules?tree=customers',
      heading: 'Schedules',
    },
    {
      pattern: 'schedules/overview',
      name: 'schedules-overview',
      url: '/schedules/overview',
      heading: 'Schedule overview',
    },
    {
      pattern: 'retention',
      name: 'retention',
      url: '/retention?tree=inventory',
      heading: 'Retention',
    },
    { pattern: 'health', name: 'health', url: '/health', heading: 'Health' },
    {
      pattern: 'health',
      name: 'health-backup',
      url: `/health?backup=${baselineId}`,
      heading: 'Health',
    },
    { pattern: 'trees', name: 'trees', url: '/trees', heading: 'Trees' },
    {
      pattern: 'trees/:treeId',
      name: 'tree-customers',
      url: '/trees/customers',
      heading: /customers/,
    },
    {
      pattern: 'trees/:treeId',
      name: 'tree-missing',
      url: '/trees/no-such-tree',
      heading: /no-such-tree/,
    },
    { pattern: 'schema', name: 'schema', url: '/schema', heading: 'Schema' },
    {
      pattern: 'schema/:treeId',
      name: 'schema-profiles',
      url: '/schema/profiles',
      heading: 'Schema',
    },
    { pattern: 'maintenance', name: 'maintenance', url: '/maintenance', heading: 'Maintenance' },
    {
      pattern: 'notifications',
      name: 'notifications',
      url: '/notifications',
      heading: 'Notifications',
    },
    { pattern: 'audit', name: 'audit', url: '/audit', heading: 'Audit' },
    { pattern: '*', name: 'not-found', url: '/no-such-page', heading: /not found/i },
  ];
}

/** The shots the README shows (docs/screenshots/<name>.png): the window as the user sees it. */
export const README_SHOTS: readonly { name: string; size: 'wide' | 'phone' }[] = [
  { name: 'dashboard', size: 'wide' },
  { name: 'backups', size: 'wide' },
  { name: 'backup-compare', size: 'wide' },
  { name: 'retention', size: 'wide' },
  { name: 'backup-full', size: 'phone' },
];

/** The pages with actions, looked at once more as a viewer (who may take none of them). */
export const VIEWER_SHOTS: readonly string[] = [
  'backups',
  'backup-full',
  'schedules-customers',
  'retention',
  'health-backup',
  'tree-customers',
  'schema-profiles',
  'maintenance',
];

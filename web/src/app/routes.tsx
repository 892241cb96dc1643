import type { RouteObject } from 'react-router';
import { AuditPage } from '../features/audit/components/audit-page';
import { AuthCallbackPage } from '../features/auth/components/auth-callback-page';
import { SignInPage } from '../features/auth/components/sign-in-page';
import { BackupComparePage } from '../features/backups/components/backup-compare-page';
import { BackupDetailPage } from '../features/backups/components/backup-detail-page';
import { BackupsPage } from '../features/backups/components/backups-page';
import { deadLetterSections } from '../features/dead-letters/components/dead-letter-sections';
import { drillPlanSections } from '../features/drill-plans/components/drill-plan-sections';
import { BackupDrillsPanel } from '../features/drills/components/backup-drills-panel';
import { TreeDrillsPanel } from '../features/drills/components/tree-drills-panel';
import { TreeProofsSection } from '../features/drills/components/tree-proofs-section';
import { DashboardPage } from '../features/dashboard/components/dashboard-page';
import { HealthPage } from '../features/health/components/health-page';
import { MaintenancePage } from '../features/maintenance/components/maintenance-page';
import { NotificationsPage } from '../features/notifications/components/notifications-page';
import { OperationDetailPage } from '../features/operations/components/operation-detail-page';
import { OperationsPage } from '../features/operations/components/operations-page';
import { RetentionPage } from '../features/retention/components/retention-page';
import { SchedulesOverviewPage } from '../features/schedules/components/schedules-overview-page';
import { SchedulesPage } from '../features/schedules/components/schedules-page';
import { SchemaPage } from '../features/schema/components/schema-page';
import { TreeDetailPage } from '../features/trees/components/tree-detail-page';
import { TreesPage } from '../features/trees/components/trees-page';
import { NotFoundPage } from './not-found-page';
import { RequireSession } from './require-session';
import { RootLayout } from './root-layout';
import { RouteErrorPage } from './route-error-page';
import { AppShell } from './shell/app-shell';

/** The route table; state that defines a view (ids, filters) is in the path or search params. */
export const appRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/sign-in', element: <SignInPage /> },
      { path: '/auth/callback', element: <AuthCallbackPage /> },
      {
        path: '/',
        element: (
          <RequireSession>
            <AppShell />
          </RequireSession>
        ),
        children: [
          { index: true, element: <DashboardPage /> },
          { path: 'backups', element: <BackupsPage /> },
          { path: 'backups/compare', element: <BackupComparePage /> },
          {
            path: 'backups/:backupId',
            element: (
              <BackupDetailPage
                drillsPanel={(manifest) => <BackupDrillsPanel manifest={manifest} />}
              />
            ),
          },
          { path: 'operations', element: <OperationsPage /> },
          { path: 'operations/:operationId', element: <OperationDetailPage /> },
          // A scope's schedules end with its restore drill plans.
          { path: 'schedules', element: <SchedulesPage sections={drillPlanSections} /> },
          { path: 'schedules/overview', element: <SchedulesOverviewPage /> },
          { path: 'retention', element: <RetentionPage /> },
          { path: 'health', element: <HealthPage proofSection={<TreeProofsSection />} /> },
          { path: 'trees', element: <TreesPage /> },
          {
            path: 'trees/:treeId',
            element: (
              <TreeDetailPage drillsPanel={(treeId) => <TreeDrillsPanel treeId={treeId} />} />
            ),
          },
          // The schema page of a tree ends with the dead letters' sections.
          { path: 'schema', element: <SchemaPage sections={deadLetterSections} /> },
          { path: 'schema/:treeId', element: <SchemaPage sections={deadLetterSections} /> },
          { path: 'maintenance', element: <MaintenancePage /> },
          { path: 'notifications', element: <NotificationsPage /> },
          { path: 'audit', element: <AuditPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];

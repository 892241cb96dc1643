import type { ActiveAlert } from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import type { Column } from '../../../components/ui/table';
import { Term } from '../../../components/ui/term';
import { Time } from '../../../components/ui/time';
import { paths } from '../../../lib/paths';
import { scopeLink } from '../../../lib/scope-link';
import { useListActiveAlertsQuery } from '../api/use-list-active-alerts-query';
import { severityWords, sortAlerts } from '../utils/alerts';
import { DashboardTableSection } from './dashboard-section';

const columns: readonly Column<ActiveAlert>[] = [
  {
    id: 'severity',
    header: 'Severity',
    cell: (alert) => {
      const severity = severityWords(alert.severity);
      return (
        <Badge tone={severity.tone}>
          <Term term={severity} />
        </Badge>
      );
    },
  },
  {
    id: 'alert',
    header: 'Alert',
    cell: (alert) => (
      <div className="alert-text">
        <Term term={{ words: alert.summary || alert.alertName, raw: alert.alertName }} />
        {alert.description && <span className="muted alert-text__more">{alert.description}</span>}
      </div>
    ),
  },
  { id: 'about', header: 'About', cell: (alert) => <AlertLinks alert={alert} /> },
  { id: 'since', header: 'Since', cell: (alert) => <Time value={alert.since} compact /> },
];

function AlertLinks({ alert }: { alert: ActiveAlert }) {
  const scope = scopeLink(alert.scope);
  if (!scope && !alert.operationId) return <span className="muted">The whole tenant</span>;
  return (
    <span className="alert-links">
      {scope && <Link to={scope.to}>{scope.text}</Link>}
      {alert.operationId && (
        <Link to={paths.operation(alert.operationId)}>
          Operation <span className="mono">{alert.operationId}</span>
        </Link>
      )}
    </span>
  );
}

/**
 * The alerts the shipped alert rules would fire now, critical first, each linking to the scope
 * or operation it is about: what an operator paged by Prometheus would look at first.
 */
export function AlertsSection() {
  const alerts = useListActiveAlertsQuery();
  const rows = alerts.data ? sortAlerts(alerts.data.alerts) : [];
  return (
    <DashboardTableSection
      title="Alerts"
      wide
      isPending={alerts.isPending}
      error={alerts.error}
      onRetry={() => void alerts.refetch()}
      emptyTitle="No alerts: nothing the alert rules watch for is happening now"
      emptyText={
        <>
          Checked <Time value={alerts.data?.evaluatedAt} />: failed, overdue and corrupt backups,
          stuck operations, a late scheduler and piling dead letters.
        </>
      }
      more={<Link to={paths.notifications}>Who is told when an alert fires</Link>}
      caption="Alerts the alert rules would fire now, critical first"
      columns={columns}
      rows={rows}
      rowKey={(alert) =>
        `${alert.alertName}\u0000${alert.scope}\u0000${alert.operationId}\u0000${alert.summary}`
      }
    />
  );
}

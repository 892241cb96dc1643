import type {
  ChannelKind,
  NotificationDelivery,
} from '@store/contract/gen/store/notifications/v1/notifications_pb.js';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { Spinner } from '../../../components/ui/spinner';
import { Table, type Column } from '../../../components/ui/table';
import { Term } from '../../../components/ui/term';
import { Time } from '../../../components/ui/time';
import { paths } from '../../../lib/paths';
import { scopeLink } from '../../../lib/scope-link';
import { useListDeliveriesQuery } from '../api/use-list-deliveries-query';
import { responseCodeText } from '../utils/delivery-outcome';
import { deliveryStateWords, eventWords } from '../utils/notification-words';

function columns(kind: ChannelKind): Column<NotificationDelivery>[] {
  return [
    {
      id: 'time',
      header: 'Time',
      cell: (d) => <Time value={d.lastAttemptAt ?? d.createdAt} compact />,
    },
    {
      id: 'what',
      header: 'What',
      cell: (d) => (
        <div className="delivery-what">
          <Term term={eventWords(d.event)} className="delivery-what__event" />
          {d.summary && <span className="delivery-what__summary">{d.summary}</span>}
          <DeliveryLinks delivery={d} />
        </div>
      ),
    },
    {
      id: 'state',
      header: 'State',
      cell: (d) => {
        const state = deliveryStateWords(d.state);
        return (
          <Badge tone={state.tone}>
            <Term term={state} />
          </Badge>
        );
      },
    },
    { id: 'attempts', header: 'Attempts', numeric: true, cell: (d) => d.attempts },
    {
      id: 'code',
      header: 'Answer',
      cell: (d) => responseCodeText(kind, d.lastResponseCode),
    },
    {
      id: 'error',
      header: 'Error',
      cell: (d) =>
        d.lastError ? (
          <span className="delivery-error">{d.lastError}</span>
        ) : (
          <span className="muted">None</span>
        ),
    },
  ];
}

function DeliveryLinks({ delivery }: { delivery: NotificationDelivery }) {
  const scope = scopeLink(delivery.scope);
  if (!scope && !delivery.operationId) return null;
  return (
    <span className="delivery-what__links">
      {scope && <Link to={scope.to}>{scope.text}</Link>}
      {delivery.operationId && (
        <Link to={paths.operation(delivery.operationId)}>the operation</Link>
      )}
    </span>
  );
}

/** A channel's delivery log, newest first: what was sent, how it went, and the receiver's answer. */
export function DeliveryLog({
  channelId,
  channelName,
  kind,
}: {
  channelId: string;
  channelName: string;
  kind: ChannelKind;
}) {
  const log = useListDeliveriesQuery(channelId);
  const deliveries = log.data?.pages.flatMap((page) => page.deliveries) ?? [];
  if (log.isPending) return <Spinner label="Loading the delivery log…" />;
  if (log.isError) {
    return (
      <ErrorBanner
        title={`Could not load the delivery log of ${channelName}`}
        error={log.error}
        onRetry={() => void log.refetch()}
      />
    );
  }
  return (
    <div className="delivery-log">
      <Table
        caption={`Deliveries of ${channelName}, newest first`}
        captionHidden
        columns={columns(kind)}
        rows={deliveries}
        rowKey={(d) => d.deliveryId}
        empty={
          <EmptyState title="Nothing sent yet">
            Events this channel is told about, and test messages, are listed here with the
            receiver’s answer.
          </EmptyState>
        }
      />
      {log.hasNextPage && (
        <div className="load-more">
          <Button busy={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
            Load more
          </Button>
        </div>
      )}
    </div>
  );
}

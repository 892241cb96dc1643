import { useEffect, useState, useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { describeError } from '../../../lib/errors';
import { paths } from '../../../lib/paths';
import { readSessionJson, writeSessionJson } from '../../../lib/storage';
import { useActiveTenant, useServices } from '../../../lib/services';
import { useListActiveOperationsQuery } from '../hooks/use-list-active-operations-query';
import { ActiveTrayItem, FollowedTrayItem } from './tray-items';

const OPEN_KEY = 'store.tray.open';

/**
 * The operations tray, on every page: the tenant's queued and running operations with their
 * progress, and the ones it saw finish in this session, with their outcome, until dismissed.
 */
export function OperationsTray() {
  const tenant = useActiveTenant();
  const { tracked } = useServices();
  const followed = useSyncExternalStore(tracked.subscribe, tracked.getSnapshot);
  const active = useListActiveOperationsQuery();
  const [open, setOpen] = useState(() => readSessionJson<boolean>(OPEN_KEY) ?? true);

  // Follow whatever runs, so the tray can still show it once it leaves the active list.
  useEffect(() => {
    for (const operation of active.operations) tracked.follow(tenant, operation);
  }, [active.operations, tenant, tracked]);

  const activeIds = new Set(active.operations.map((op) => op.operationId));
  const others = followed.filter((e) => e.tenant === tenant && !activeIds.has(e.operationId));
  const finishedCount = others.filter((e) => e.outcome !== undefined).length;
  const total = active.operations.length + others.length;

  const toggle = () => {
    writeSessionJson(OPEN_KEY, !open);
    setOpen(!open);
  };

  return (
    <aside className={open ? 'tray tray--open' : 'tray'} aria-label="Operations tray">
      <button type="button" className="tray__toggle" aria-expanded={open} onClick={toggle}>
        <span
          className={active.operations.length > 0 ? 'tray__pulse' : undefined}
          aria-hidden="true"
        />
        Operations: {active.operations.length} running
        {finishedCount > 0 && `, ${finishedCount} finished`}
      </button>
      {open && (
        <div className="tray__body">
          {active.error && <p className="field__error">{describeError(active.error)}</p>}
          {total === 0 && !active.error && (
            <p className="muted tray__empty">Nothing running in tenant {tenant}.</p>
          )}
          {total > 0 && (
            <ul className="tray__list">
              {active.operations.map((operation) => (
                <ActiveTrayItem key={operation.operationId} operation={operation} />
              ))}
              {others.map((entry) => (
                <FollowedTrayItem key={entry.operationId} entry={entry} />
              ))}
            </ul>
          )}
          <div className="tray__footer">
            <Link to={paths.operations}>All operations</Link>
            {finishedCount > 0 && (
              <Button variant="ghost" onClick={() => tracked.dismissFinished(tenant)}>
                Clear finished
              </Button>
            )}
          </div>
        </div>
      )}
    </aside>
  );
}

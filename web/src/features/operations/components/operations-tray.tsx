import { useEffect, useState, useSyncExternalStore } from 'react';
import { Link, useLocation } from 'react-router';
import { Button } from '../../../components/ui/button';
import { ErrorText } from '../../../components/ui/error-text';
import { kindLabel } from '../../../lib/operations/operation-kinds';
import { paths } from '../../../lib/paths';
import { estimateProgress } from '../../../lib/progress/estimate';
import { readSessionJson, writeSessionJson } from '../../../lib/storage';
import { useActiveTenant, useConnectivity, useServices } from '../../../lib/services';
import { useMediaQuery, WIDE_SCREEN } from '../../../lib/use-media-query';
import { useAutomaticRetentionRuns } from '../api/use-automatic-retention-runs';
import { useListActiveOperationsQuery } from '../api/use-list-active-operations-query';
import { ActiveTrayItem, FollowedTrayItem, FollowedWatcher } from './tray-items';

/** The user's choice on wide screens: docked open, or a pill; unset follows the activity. */
const DOCK_KEY = 'store.tray.docked';

/**
 * The operations tray, on every page: the tenant's queued and running operations with their
 * progress, and the ones it saw finish in this session, until dismissed. It never covers the
 * page: a pill in the shell's sticky header row that names what runs; on wide screens, with
 * something to show, a column docked beside the page (which narrows to make room); on narrow
 * screens and phones, a bottom sheet behind the pill.
 */
export function OperationsTray() {
  const tenant = useActiveTenant();
  const { tracked } = useServices();
  const followed = useSyncExternalStore(tracked.subscribe, tracked.getSnapshot);
  const active = useListActiveOperationsQuery();
  const wide = useMediaQuery(WIDE_SCREEN);
  const [docked, setDocked] = useState(() => readSessionJson<boolean>(DOCK_KEY));
  const [sheetOpen, setSheetOpen] = useState(false);
  const location = useLocation();
  const unreachable = useConnectivity().unreachableSince !== null;

  // Follow whatever runs, so the tray can still show it once it leaves the active list.
  useEffect(() => {
    for (const operation of active.operations) tracked.follow(tenant, operation);
  }, [active.operations, tenant, tracked]);
  // And every automatic retention apply, even one that ran between two polls: nobody started
  // it, so the tray is where it is seen, with its result.
  const automatic = useAutomaticRetentionRuns();
  useEffect(() => {
    for (const operation of automatic) tracked.follow(tenant, operation);
  }, [automatic, tenant, tracked]);

  // The sheet is a place to look, not to stay: moving to another page closes it.
  useEffect(() => setSheetOpen(false), [location.pathname]);

  const activeIds = new Set(active.operations.map((op) => op.operationId));
  const others = followed.filter((e) => e.tenant === tenant && !activeIds.has(e.operationId));
  const finishedCount = others.filter((e) => e.outcome !== undefined).length;
  const total = active.operations.length + others.length;
  const open = wide ? (docked ?? total > 0) : sheetOpen;

  const toggle = () => {
    if (wide) {
      writeSessionJson(DOCK_KEY, !open);
      setDocked(!open);
    } else setSheetOpen(!open);
  };

  const first = active.operations[0];
  const firstPercent = first?.progress
    ? estimateProgress({
        done: Number(first.progress.done),
        total: Number(first.progress.total),
        elapsedMs: undefined,
      }).percent
    : undefined;

  const className = [
    'tray',
    open ? 'tray--open' : 'tray--pill',
    open && (wide ? 'tray--docked' : 'tray--sheet'),
    active.operations.length > 0 && 'tray--active',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <aside
      className={className}
      aria-label="Operations tray"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open && !wide) setSheetOpen(false);
      }}
    >
      <button type="button" className="tray__toggle" aria-expanded={open} onClick={toggle}>
        <span
          className={active.operations.length > 0 ? 'tray__pulse' : 'tray__dot'}
          aria-hidden="true"
        />
        <span className="tray__count">
          <span className="tray__label">Operations:</span> {active.operations.length} running
          {unreachable && active.operations.length > 0 && ' when last seen'}
          {finishedCount > 0 && `, ${finishedCount} finished`}
        </span>
        {!open && first && (
          <span className="tray__now" aria-hidden="true">
            {kindLabel(first.kind)}
            {unreachable ? ' unknown' : firstPercent !== undefined && ` ${firstPercent} %`}
          </span>
        )}
      </button>
      {!open && others.map((entry) => <FollowedWatcher key={entry.operationId} entry={entry} />)}
      {open && (
        <div className="tray__body">
          {active.error !== null && (
            <div className="field__error">
              <ErrorText error={active.error} lead="The tray could not be refreshed." />
            </div>
          )}
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
            <Button variant="ghost" onClick={toggle}>
              {wide ? 'Collapse' : 'Close'}
            </Button>
          </div>
        </div>
      )}
    </aside>
  );
}

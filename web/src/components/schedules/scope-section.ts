import type { ReactNode } from 'react';

/** A scope of the schedules page: a tree, and a key prefix of it ('' for the whole tree). */
export interface SchedulePageScope {
  treeId: string;
  keyPrefix: string;
}

/**
 * A section another feature adds below a scope's schedules (the route composes them, so the
 * schedules feature imports no other feature). `zone` is the time zone the page shows times in.
 */
export interface SchedulePageSection {
  id: string;
  render: (scope: SchedulePageScope, zone: string) => ReactNode;
}

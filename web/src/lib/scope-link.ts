import { paths } from './paths';

/** A page that shows a scope, and the scope in words for the link. */
export interface ScopeLink {
  to: string;
  text: string;
}

/**
 * Where a scope named by an alert or a notification leads: a tree ("inventory") to its tree
 * page; a backup set ("set:<name>", the scheduler's spelling) to the schedule overview, the one
 * page that lists set schedules. Empty: no scope, no link.
 */
export function scopeLink(scope: string): ScopeLink | null {
  if (scope === '') return null;
  if (scope.startsWith('set:')) {
    return { to: paths.schedulesOverview, text: `set ${scope.slice('set:'.length)}` };
  }
  return { to: paths.tree(scope), text: `tree ${scope}` };
}

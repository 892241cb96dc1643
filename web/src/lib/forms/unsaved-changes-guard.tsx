import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';

/**
 * Asks before a form's unsaved changes are lost: a link or the back button inside the console
 * opens a confirm (stay is the default), and closing or reloading the tab gets the browser's own
 * warning. Nothing is asked once the changes are saved or undone.
 */
export function UnsavedChangesGuard({ dirty, what }: { dirty: boolean; what: string }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty &&
      (currentLocation.pathname !== nextLocation.pathname ||
        currentLocation.search !== nextLocation.search),
  );
  useEffect(() => {
    if (!dirty) return undefined;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  return (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      title={`Leave without saving ${what}?`}
      confirmLabel="Leave and lose the changes"
      cancelLabel="Stay on this page"
      tone="danger"
      onConfirm={() => blocker.proceed?.()}
      onCancel={() => blocker.reset?.()}
    >
      You changed {what} and did not save them. Leaving this page drops the changes.
    </ConfirmDialog>
  );
}

import { fireEvent, render, screen } from '@testing-library/react';
import { useState, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { Button } from './button';
import { ConfirmDialog } from './confirm-dialog';
import { CopyableId } from './copyable-id';
import { Dialog } from './dialog';

/** A page with a button that opens a confirm dialog, like every destructive action. */
function Page({ removeOpenerOnConfirm = false }: { removeOpenerOnConfirm?: boolean }) {
  const [open, setOpen] = useState(false);
  const [openerShown, setOpenerShown] = useState(true);
  return (
    <main id="main" tabIndex={-1}>
      <button type="button">Elsewhere</button>
      {openerShown && (
        <button type="button" onClick={() => setOpen(true)}>
          Delete backup
        </button>
      )}
      <ConfirmDialog
        open={open}
        title="Delete backup?"
        confirmLabel="Delete"
        onConfirm={() => {
          if (removeOpenerOnConfirm) setOpenerShown(false);
          setOpen(false);
        }}
        onCancel={() => setOpen(false)}
      >
        It cannot be undone.
      </ConfirmDialog>
    </main>
  );
}

function openDialog(): HTMLElement {
  const opener = screen.getByRole('button', { name: 'Delete backup' });
  opener.focus();
  fireEvent.click(opener);
  expect(document.querySelector('dialog')).not.toBeNull();
  return opener;
}

describe('Dialog focus return', () => {
  it('moves focus into the dialog, and back to the opener on Cancel', () => {
    render(<Page />);
    const opener = openDialog();
    expect(document.activeElement).not.toBe(opener);
    fireEvent.click(screen.getByRole('button', { name: 'Keep it' }));
    expect(document.querySelector('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('returns focus to the opener on Escape (the dialog cancel event)', () => {
    render(<Page />);
    const opener = openDialog();
    fireEvent(document.querySelector('dialog')!, new Event('cancel', { cancelable: true }));
    expect(document.querySelector('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('returns focus to the opener on a click on the backdrop', () => {
    render(<Page />);
    const opener = openDialog();
    fireEvent.click(document.querySelector('dialog')!);
    expect(document.querySelector('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('returns focus to the opener on confirm', () => {
    render(<Page />);
    const opener = openDialog();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(document.activeElement).toBe(opener);
  });

  it('focuses the main landmark when the confirm removed the opener', () => {
    render(<Page removeOpenerOnConfirm />);
    openDialog();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.queryByRole('button', { name: 'Delete backup' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('main'));
  });
});

describe('Dialog first focus', () => {
  function Opened({ children, footer }: { children: ReactNode; footer?: ReactNode }) {
    return (
      <Dialog open title="Restore" onClose={() => undefined} footer={footer}>
        {children}
      </Dialog>
    );
  }

  it('goes to the first form field, the checked choice of a radio group, not a Copy button', () => {
    render(
      <Opened>
        <form>
          <p>
            Backup b-1 <CopyableId id="b-1" label="backup id" />
          </p>
          <label>
            <input type="radio" name="mode" disabled={false} /> In place
          </label>
          <label>
            <input type="radio" name="mode" defaultChecked /> Into a new tree
          </label>
          <label>
            Target <input />
          </label>
        </form>
      </Opened>,
    );
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Into a new tree' }));
  });

  it('goes to the primary action when the dialog has no field', () => {
    render(
      <Opened
        footer={
          <>
            <Button>Cancel</Button>
            <Button variant="primary">Start</Button>
          </>
        }
      >
        <p>
          Backup b-1 <CopyableId id="b-1" label="backup id" />
        </p>
      </Opened>,
    );
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Start' }));
  });

  it('keeps the focus where the content put it (Cancel on a destructive confirm)', () => {
    render(<Page />);
    openDialog();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Keep it' }));
  });
});

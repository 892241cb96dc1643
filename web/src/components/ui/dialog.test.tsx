import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ConfirmDialog } from './confirm-dialog';

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

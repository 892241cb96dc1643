import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { GuardedButton } from './guarded-button';

describe('GuardedButton', () => {
  it('when not allowed, is disabled and shows the reason as text and tooltip', () => {
    render(
      <GuardedButton allowed={false} reason="Needs the admin role in tenant acme">
        Delete backup
      </GuardedButton>,
    );
    const button = screen.getByRole('button', { name: 'Delete backup' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.title).toBe('Needs the admin role in tenant acme');
    expect(screen.getByText('Needs the admin role in tenant acme').id).toBe(
      button.getAttribute('aria-describedby'),
    );
  });

  it('when allowed, is a plain enabled button without a reason', () => {
    render(
      <GuardedButton allowed reason="unused">
        Delete backup
      </GuardedButton>,
    );
    const button = screen.getByRole('button', { name: 'Delete backup' }) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    expect(screen.queryByText('unused')).toBeNull();
  });
});

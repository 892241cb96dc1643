import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createTestApp, renderApp } from '../../../testing/render-app';

describe('AuthCallbackPage', () => {
  it('a sign-on that cannot finish says so in its heading and gives one piece of advice', async () => {
    // No sign-on was started in this tab: nothing pending in session storage.
    sessionStorage.clear();
    renderApp(
      createTestApp(() => {}),
      '/auth/callback?code=c&state=s',
    );

    expect(await screen.findByRole('heading', { name: 'Sign-in failed' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Signing in…' })).toBeNull();
    const alert = screen
      .getAllByRole('alert')
      .find((el) => el.querySelector('.error-text__sentence'));
    expect(alert?.querySelector('.error-text__sentence')?.textContent).toBe(
      'No single sign-on was started in this tab. Sign in again.',
    );
    expect(alert?.textContent).not.toMatch(/reload|try again/i);
    expect(screen.getByRole('link', { name: 'Back to sign-in' })).toBeTruthy();
  });
});

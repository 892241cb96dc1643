import type { ButtonHTMLAttributes } from 'react';

/**
 * `danger` (solid red) is for the confirm of a destructive action; `danger-quiet` (outlined) for
 * offering one among other actions, e.g. on every row of a table.
 */
export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'danger-quiet' | 'ghost';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  /** Shows the button as working and blocks a second click while a request is in flight. */
  busy?: boolean;
}

export function Button({
  variant = 'secondary',
  busy = false,
  type = 'button',
  className,
  disabled,
  children,
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      className={['btn', `btn--${variant}`, className].filter(Boolean).join(' ')}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...rest}
    >
      {busy && <span className="spinner spinner--inline" aria-hidden="true" />}
      {children}
    </button>
  );
}

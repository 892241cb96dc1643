import { useId } from 'react';
import { Button, type ButtonProps } from './button';

export interface GuardedButtonProps extends ButtonProps {
  /** From a capability probe or a role check. */
  allowed: boolean;
  /** Why it is not allowed; shown next to the button and as its tooltip (DESIGN.md §6). */
  reason: string;
}

/**
 * A button that stays visible but disabled when the caller may not act, with the reason as text
 * (not only a tooltip, which keyboard and touch users cannot see).
 */
export function GuardedButton({ allowed, reason, disabled, ...rest }: GuardedButtonProps) {
  const reasonId = useId();
  if (allowed) return <Button disabled={disabled} {...rest} />;
  return (
    <span className="guarded">
      <Button {...rest} disabled title={reason} aria-describedby={reasonId} />
      <span id={reasonId} className="guarded__reason">
        {reason}
      </span>
    </span>
  );
}

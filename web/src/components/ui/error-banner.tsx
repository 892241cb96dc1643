import { ErrorText } from './error-text';
import { Button } from './button';

export interface ErrorBannerProps {
  /** What could not be done ("Could not load operations"). */
  title: string;
  error: unknown;
  onRetry?: () => void;
}

/** A failed request in place: what happened and what to do, the code and raw message, a retry. */
export function ErrorBanner({ title, error, onRetry }: ErrorBannerProps) {
  return (
    <div className="error-banner" role="alert">
      <div>
        <p className="error-banner__title">{title}</p>
        <div className="error-banner__detail">
          <ErrorText error={error} />
        </div>
      </div>
      {onRetry && <Button onClick={onRetry}>Try again</Button>}
    </div>
  );
}

import { describeError } from '../../lib/errors';
import { Button } from './button';

export interface ErrorBannerProps {
  /** What could not be done ("Could not load operations"). */
  title: string;
  error: unknown;
  onRetry?: () => void;
}

/** A failed request in place: the gRPC code name and the server's message, and a retry. */
export function ErrorBanner({ title, error, onRetry }: ErrorBannerProps) {
  return (
    <div className="error-banner" role="alert">
      <div>
        <p className="error-banner__title">{title}</p>
        <p className="error-banner__detail">{describeError(error)}</p>
      </div>
      {onRetry && <Button onClick={onRetry}>Try again</Button>}
    </div>
  );
}

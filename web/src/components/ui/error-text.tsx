import {
  explainError,
  explainOperationError,
  technicalText,
  type ErrorExplanation,
} from '../../lib/errors';

/**
 * A failure in words: what happened and what to do next, then the gRPC code and the server's
 * raw message one click away in a disclosure (DESIGN.md §6). Inline, for banners, dialogs and
 * panels; `error` is anything thrown, `operationError` an operation's recorded error.
 */
export function ErrorText(
  props:
    | { error: unknown; operationError?: undefined; lead?: string }
    | { error?: undefined; operationError: { code: string; message: string }; lead?: string },
) {
  const explanation = props.operationError
    ? explainOperationError(props.operationError)
    : explainError(props.error);
  return <ExplainedError explanation={explanation} lead={props.lead} />;
}

export function ExplainedError({
  explanation,
  lead,
}: {
  explanation: ErrorExplanation;
  /** What could not be done, before the sentences ("The server refused the policy:"). */
  lead?: string | undefined;
}) {
  return (
    <span className="error-text">
      <span className="error-text__sentence">
        {lead && <>{lead} </>}
        {explanation.what} {explanation.next}
      </span>
      <details className="error-text__details">
        <summary>Details</summary>
        <code className="mono">{technicalText(explanation)}</code>
      </details>
    </span>
  );
}

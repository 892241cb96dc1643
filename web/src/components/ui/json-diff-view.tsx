import { jsonDiffLines } from '../../lib/json-diff';

const MARK = { same: ' ', removed: '−', added: '+' } as const;

/** Before and after of one value as a line diff of pretty JSON. */
export function JsonDiffView({
  before,
  after,
}: {
  before?: string | undefined;
  after?: string | undefined;
}) {
  return (
    // Focusable: it scrolls when a value is long, and keyboard users must reach that too.
    <pre className="json-diff" aria-label="Value before and after" tabIndex={0}>
      {jsonDiffLines(before, after).map((line, index) => (
        <span key={index} className={`json-diff__line json-diff__line--${line.kind}`}>
          <span className="json-diff__mark" aria-hidden="true">
            {MARK[line.kind]}
          </span>
          {line.kind !== 'same' && (
            <span className="visually-hidden">
              {line.kind === 'added' ? 'after: ' : 'before: '}
            </span>
          )}
          <span className="json-diff__text">{line.text}</span>
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

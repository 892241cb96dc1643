import type { Worded } from '../../lib/words';

/**
 * A value the API spells as a code, shown in words with the code as its tooltip: the title for
 * the mouse, and the same text as the accessible description, so the raw value (what logs and
 * the API say) is one hover or one screen-reader query away.
 */
export function Term({ term, className }: { term: Worded; className?: string }) {
  if (term.words === term.raw) return <span className={className}>{term.words}</span>;
  return (
    <span className={className ? `term ${className}` : 'term'} title={term.raw} data-raw={term.raw}>
      {term.words}
    </span>
  );
}

import { useEffect, useState } from 'react';

/**
 * An id shown beside the name it belongs to: secondary monospace text with a button that copies
 * it (for a ticket, a CLI call, a log search). Names are what people read; ids are what they paste.
 */
export function CopyableId({ id, label = 'id' }: { id: string; label?: string }) {
  const [copied, setCopied] = useState<'copied' | 'failed' | null>(null);
  useEffect(() => {
    if (copied === null) return;
    const timer = setTimeout(() => setCopied(null), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(id);
      setCopied('copied');
    } catch {
      // No clipboard (an insecure origin, a denied permission): the id stays selectable.
      setCopied('failed');
    }
  };

  return (
    <span className="copyable-id">
      <span className="mono muted copyable-id__text" title={id}>
        {id}
      </span>
      <button
        type="button"
        className="copyable-id__button"
        aria-label={`Copy ${label} ${id}`}
        onClick={() => void copy()}
      >
        {copied === 'copied' ? 'Copied' : copied === 'failed' ? 'Select to copy' : 'Copy'}
      </button>
      <span className="visually-hidden" role="status">
        {copied === 'copied' ? `Copied ${id}` : ''}
      </span>
    </span>
  );
}

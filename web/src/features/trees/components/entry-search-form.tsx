import { useEffect, useState, type SubmitEvent } from 'react';
import { Button } from '../../../components/ui/button';

/** The key-prefix search; submitting starts again at the first page. */
export function EntrySearchForm({
  prefix,
  onSearch,
}: {
  prefix: string;
  onSearch: (prefix: string) => void;
}) {
  const [text, setText] = useState(prefix);
  // Back/forward changes the URL under the form: show what the page is filtered by.
  useEffect(() => setText(prefix), [prefix]);

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    onSearch(text);
  };
  return (
    <form className="filters" role="search" aria-label="Entries" onSubmit={submit}>
      <div className="filters__item">
        <label htmlFor="entry-prefix">Key prefix</label>
        <input
          id="entry-prefix"
          className="input mono"
          type="search"
          value={text}
          placeholder="e.g. user/"
          spellCheck={false}
          autoComplete="off"
          onChange={(event) => setText(event.target.value)}
        />
      </div>
      <Button type="submit">Search</Button>
      {prefix && (
        <Button
          variant="ghost"
          onClick={() => {
            setText('');
            onSearch('');
          }}
        >
          Show all keys
        </Button>
      )}
    </form>
  );
}

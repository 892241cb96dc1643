/**
 * What the entries view shows, from the URL: ?prefix=user/&page=T1&page=T2&key=user/7.
 * `pages` is the trail of keyset tokens that led to the current page (the last one is the
 * current page; none means the first), so "Previous" is dropping the last token and a link
 * reproduces the exact page.
 */
export interface EntryBrowse {
  prefix: string;
  pages: string[];
  /** The entry whose value is open, if any. */
  openKey: string | null;
}

/** Entries per page. */
export const ENTRIES_PAGE_SIZE = 25;

export function browseFromSearch(params: URLSearchParams): EntryBrowse {
  return {
    prefix: params.get('prefix') ?? '',
    pages: params.getAll('page').filter((token) => token !== ''),
    openKey: params.get('key'),
  };
}

/** The inverse of browseFromSearch; empty values are left out so links stay short. */
export function searchFromBrowse(browse: EntryBrowse): URLSearchParams {
  const params = new URLSearchParams();
  if (browse.prefix) params.set('prefix', browse.prefix);
  for (const token of browse.pages) params.append('page', token);
  if (browse.openKey !== null) params.set('key', browse.openKey);
  return params;
}

/** The page token of the page shown ('' for the first). */
export function currentPageToken(browse: EntryBrowse): string {
  return browse.pages.at(-1) ?? '';
}

/** 1-based number of the page shown. */
export function pageNumber(browse: EntryBrowse): number {
  return browse.pages.length + 1;
}

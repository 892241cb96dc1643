import { describe, expect, it } from 'vitest';
import { browseFromSearch, currentPageToken, pageNumber, searchFromBrowse } from './entry-browse';

describe('entry browse state in the URL', () => {
  it('reads prefix, the trail of page tokens and the open key', () => {
    const browse = browseFromSearch(new URLSearchParams('prefix=user/&page=t1&page=t2&key=user/7'));
    expect(browse).toEqual({ prefix: 'user/', pages: ['t1', 't2'], openKey: 'user/7' });
    expect(currentPageToken(browse)).toBe('t2');
    expect(pageNumber(browse)).toBe(3);
  });

  it('starts at the first page with no prefix', () => {
    const browse = browseFromSearch(new URLSearchParams(''));
    expect(currentPageToken(browse)).toBe('');
    expect(pageNumber(browse)).toBe(1);
    expect(searchFromBrowse(browse).toString()).toBe('');
  });

  it('round-trips', () => {
    const browse = { prefix: 'a b', pages: ['x'], openKey: 'a b/1' };
    expect(browseFromSearch(searchFromBrowse(browse))).toEqual(browse);
  });
});

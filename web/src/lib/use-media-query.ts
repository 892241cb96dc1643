import { useSyncExternalStore } from 'react';

/** Wide enough to dock side panels beside the page (header, 12rem nav, page, 20rem panel). */
export const WIDE_SCREEN = '(min-width: 75rem)';

/**
 * Whether a media query matches now, re-rendering when it changes. Where the browser has no
 * matchMedia (tests in jsdom), `fallback` is the answer.
 */
export function useMediaQuery(query: string, fallback = true): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = globalThis.matchMedia?.(query);
      list?.addEventListener('change', onChange);
      return () => list?.removeEventListener('change', onChange);
    },
    () => globalThis.matchMedia?.(query).matches ?? fallback,
    () => fallback,
  );
}

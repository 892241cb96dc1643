import { useEffect } from 'react';

/** How long a page may keep growing above its target before we stop following it. */
const SETTLE_MS = 4_000;

/**
 * Scrolls to the element the URL's hash names, and keeps it in view while the page settles:
 * sections above it load their data after the first paint and push it down, so one scroll on
 * mount lands on whatever happened to be there. Stops following at the reader's first scroll
 * gesture or key press, or after a few seconds.
 */
export function useScrollToHash(hash: string): void {
  useEffect(() => {
    if (!hash) return;
    const id = decodeURIComponent(hash.slice(1));
    const scroll = () => document.getElementById(id)?.scrollIntoView({ block: 'start' });
    scroll();
    // Absent in some test environments: there the single scroll above is all.
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(scroll);
    observer.observe(document.body);
    const stop = () => {
      observer.disconnect();
      clearTimeout(timer);
      for (const event of STOP_EVENTS) window.removeEventListener(event, stop);
    };
    const timer = setTimeout(stop, SETTLE_MS);
    for (const event of STOP_EVENTS) window.addEventListener(event, stop, { passive: true });
    return stop;
  }, [hash]);
}

const STOP_EVENTS = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;

import { type RefObject, useLayoutEffect } from 'react';

/**
 * Publishes an element's height, as it changes, in a CSS custom property on <html>: the layout
 * that must keep clear of the element (a sticky band, the toasts) reads it there. The property
 * is removed while the element is absent.
 */
export function usePublishedHeight(
  ref: RefObject<HTMLElement | null>,
  property: string,
  present = true,
): void {
  useLayoutEffect(() => {
    const element = ref.current;
    if (!present || !element) return;
    const root = document.documentElement;
    const publish = () => root.style.setProperty(property, `${Math.ceil(element.offsetHeight)}px`);
    publish();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(publish);
    observer?.observe(element);
    return () => {
      observer?.disconnect();
      root.style.removeProperty(property);
    };
  }, [ref, property, present]);
}

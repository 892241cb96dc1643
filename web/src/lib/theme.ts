import { useCallback, useSyncExternalStore } from 'react';

export type Theme = 'light' | 'dark';

/** localStorage, not sessionStorage: a display preference, not a credential, kept across tabs. */
const THEME_KEY = 'store.theme';
const listeners = new Set<() => void>();

function systemTheme(): Theme {
  return globalThis.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function currentTheme(): Theme {
  const stored = safeLocalStorage()?.getItem(THEME_KEY);
  return stored === 'light' || stored === 'dark' ? stored : systemTheme();
}

/** Sets data-theme on <html>; the CSS variables in styles/theme.css follow it. */
export function applyTheme(theme: Theme = currentTheme()): void {
  document.documentElement.dataset.theme = theme;
}

export function setTheme(theme: Theme): void {
  safeLocalStorage()?.setItem(THEME_KEY, theme);
  applyTheme(theme);
  for (const listener of listeners) listener();
}

/** The theme and a toggle between light and dark. */
export function useTheme(): { theme: Theme; toggle: () => void } {
  const theme = useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, currentTheme);
  const toggle = useCallback(() => setTheme(theme === 'dark' ? 'light' : 'dark'), [theme]);
  return { theme, toggle };
}

function safeLocalStorage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

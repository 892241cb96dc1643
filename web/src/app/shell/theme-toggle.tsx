import { useTheme } from '../../lib/theme';

/**
 * Dark theme on/off: a toggle button with a fixed name whose state is aria-pressed for assistive
 * technology, and said in words on the button for everyone else ("Dark theme: off").
 */
export function ThemeToggle() {
  const { theme, toggle } = useTheme();
  const dark = theme === 'dark';
  return (
    <button
      type="button"
      className="btn btn--ghost"
      aria-label="Dark theme"
      aria-pressed={dark}
      onClick={toggle}
    >
      <span aria-hidden="true">
        {dark ? '☾' : '☀'} Dark theme: {dark ? 'on' : 'off'}
      </span>
    </button>
  );
}

import { useTheme } from '../../lib/theme';

/** Dark theme on/off: a toggle button with a fixed name whose state is aria-pressed. */
export function ThemeToggle() {
  const { theme, toggle } = useTheme();
  return (
    <button
      type="button"
      className="btn btn--ghost"
      aria-pressed={theme === 'dark'}
      onClick={toggle}
    >
      <span aria-hidden="true">{theme === 'dark' ? '☾' : '☀'}</span> Dark theme
    </button>
  );
}

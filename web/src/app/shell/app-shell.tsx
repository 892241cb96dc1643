import { useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { OperationsTray } from '../../features/operations/components/operations-tray';
import { usePublishedHeight } from '../../lib/use-published-height';
import { IdentityMenu } from './identity-menu';
import { MainNav } from './main-nav';
import { TenantSwitcher } from './tenant-switcher';
import { ThemeToggle } from './theme-toggle';

/**
 * The signed-in frame: header, navigation, the page, and the operations tray. On narrow screens
 * the navigation and the header's tools fold behind a Menu button (shell.css decides the width),
 * so a phone starts with the page instead of about 260 px of links; following a link folds it.
 * The header stays at the top as the page scrolls, and the tray's pill sits in its row: a band
 * of its own that no page content is drawn under at rest (its height, --header-height, keeps
 * in-page links and focus from landing beneath it).
 */
export function AppShell() {
  const { pathname } = useLocation();
  // The page the menu was opened on: it is open only there, so any navigation folds it.
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null);
  const menuOpen = menuOpenOn === pathname;
  const setMenuOpen = (open: boolean) => setMenuOpenOn(open ? pathname : null);
  const header = useRef<HTMLElement>(null);
  usePublishedHeight(header, '--header-height');

  return (
    <div
      className={menuOpen ? 'shell shell--menu-open' : 'shell'}
      onKeyDown={(event) => {
        if (menuOpen && event.key === 'Escape') setMenuOpen(false);
      }}
    >
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="shell__header" ref={header}>
        <span className="shell__brand">
          Store Admin<span className="shell__brand-tail"> Console</span>
        </span>
        <button
          type="button"
          className="btn btn--ghost shell__menu-button"
          aria-expanded={menuOpen}
          aria-controls="shell-tools main-nav"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <span aria-hidden="true">{menuOpen ? '✕' : '☰'}</span> Menu
        </button>
        <div className="shell__tools" id="shell-tools">
          <TenantSwitcher />
          <ThemeToggle />
          <IdentityMenu />
        </div>
      </header>
      <MainNav id="main-nav" />
      <main className="shell__main" id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <OperationsTray />
    </div>
  );
}

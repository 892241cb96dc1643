import { Outlet } from 'react-router';
import { OperationsTray } from '../../features/operations/components/operations-tray';
import { IdentityMenu } from './identity-menu';
import { MainNav } from './main-nav';
import { TenantSwitcher } from './tenant-switcher';
import { ThemeToggle } from './theme-toggle';

/** The signed-in frame: header, navigation, the page, and the operations tray. */
export function AppShell() {
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="shell__header">
        <span className="shell__brand">Store Admin Console</span>
        <div className="shell__tools">
          <TenantSwitcher />
          <ThemeToggle />
          <IdentityMenu />
        </div>
      </header>
      <MainNav />
      <main className="shell__main" id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <OperationsTray />
    </div>
  );
}

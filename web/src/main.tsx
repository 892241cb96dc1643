import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { applyTheme } from './lib/theme';
import './styles/theme.css';
import './styles/base.css';
import './styles/ui-controls.css';
import './styles/ui-display.css';
import './styles/ui-overlays.css';
import './styles/ui-names.css';
import './styles/shell.css';
import './styles/operations-tray.css';
import './styles/ui-words.css';
import './styles/pages.css';
import './styles/backups.css';
import './styles/backup-insight.css';
import './styles/schema.css';
import './styles/operations-pages.css';
import './styles/trees.css';
import './styles/dashboard.css';
import './styles/health.css';
import './styles/retention.css';
import './styles/notifications.css';
import './styles/drill-plans.css';
import './styles/drills.css';

// Before the first render, so the page does not flash the other theme (no inline script: CSP).
applyTheme();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

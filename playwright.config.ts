import { defineConfig } from '@playwright/test';

// End-to-end tests drive Debian's Chromium (/usr/bin/chromium; `npm test` installs it through
// apt when missing); nothing downloads a browser. Two projects run the whole suite: `direct`
// against one server that serves gRPC-Web itself (SQLite), and `edge` through the real Envoy with
// proxy/envoy.yaml in front of two replicas on PostgreSQL, plus the Envoy-only specs in e2e/edge/.
// global-setup starts what the selected projects need, unless E2E_BASE_URL names a running stack.
// Two workers, in CI too: every test has its own tenant, so the two run side by side (most often
// one per stack), and the suite takes about two thirds of the time of one worker.
const LAYOUT_SPECS = [
  'responsive.spec.ts',
  'words-whole.spec.ts',
  'nothing-covers.spec.ts',
  'wide-tables.spec.ts',
  'dialog-actions.spec.ts',
  'dialog-focus.spec.ts',
];

export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/global-setup.ts',
  outputDir: './test-results/e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  // server-gone.spec.ts stops and starts a direct server of its own, so it runs once (direct):
  // it uses neither project's stack. The layout specs measure what the browser draws (widths,
  // wrapping, what covers what, focus, button order), which does not depend on the path a call
  // takes, so they too run once (direct); every flow spec runs in both projects.
  projects: [
    { name: 'direct', testIgnore: ['edge/**'] },
    { name: 'edge', testIgnore: ['server-gone.spec.ts', ...LAYOUT_SPECS] },
  ],
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    screenshot: 'on',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    },
  },
});

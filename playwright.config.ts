import { defineConfig } from '@playwright/test';

// End-to-end tests drive Debian's Chromium (/usr/bin/chromium; `npm test` installs it through
// apt when missing); nothing downloads a browser. global-setup starts the real stack on a fresh
// temp data directory unless E2E_BASE_URL names one already running (for example behind Envoy).
export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/global-setup.ts',
  outputDir: './test-results/e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: process.env.CI ? 1 : 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
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

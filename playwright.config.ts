import { defineConfig } from '@playwright/test';

// End-to-end tests drive Debian's Chromium (/usr/bin/chromium); nothing downloads a browser.
// The suite arrives with the console (issue "Console I").
export default defineConfig({
  testDir: './e2e',
  use: {
    baseURL: process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    },
  },
});

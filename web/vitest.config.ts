import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'web',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/testing/setup.ts'],
    // A page test renders the whole app; with three test files at a time on two cores (the
    // root config) one took 5.5 s once, past Vitest's default 5 s.
    testTimeout: 20_000,
  },
});

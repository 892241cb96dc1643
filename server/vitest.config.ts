import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Integration tests start real servers and databases; give them room on a shared 2-core box.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'monitoring',
    include: ['check/**/*.test.ts'],
    // promtool and docker-compose are separate processes; a busy machine needs more than 5 s.
    testTimeout: 30000,
  },
});

import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'proxy',
    include: ['check/**/*.test.ts'],
    // `docker-compose config` runs twice in one test; a busy machine needs more than 5 s.
    testTimeout: 30000,
  },
});

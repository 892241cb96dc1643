import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'proxy',
    include: ['check/**/*.test.ts'],
    // The first run compiles Envoy's API protos with buf (cached afterwards).
    testTimeout: 120000,
  },
});

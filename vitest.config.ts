import { defineConfig } from 'vitest/config';

// One runner for the whole repository; each workspace is a project.
export default defineConfig({
  test: {
    projects: ['*/vitest.config.ts'],
  },
});

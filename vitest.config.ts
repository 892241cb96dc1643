import { defineConfig } from 'vitest/config';

// One runner for the whole repository; each workspace is a project.
export default defineConfig({
  test: {
    projects: ['*/vitest.config.ts'],
    // Most integration files wait on real servers, databases and S3 rather than compute, so
    // three files at a time on the 2-core CI machine take about two thirds of the time of one
    // (Vitest's default there), which keeps the clean-clone `npm test` under 30 minutes.
    maxWorkers: 3,
  },
});

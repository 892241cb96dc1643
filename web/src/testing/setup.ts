import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Testing Library cleans up by itself only when the runner has global hooks; vitest does not.
afterEach(() => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
});

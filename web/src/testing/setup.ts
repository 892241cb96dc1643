import { cleanup } from '@testing-library/react';
import { onlineManager } from '@tanstack/react-query';
import { afterEach } from 'vitest';

// Testing Library cleans up by itself only when the runner has global hooks; vitest does not.
afterEach(() => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
  // React Query's online state is one for the whole module: a test that lost its server must
  // not leave the next one offline.
  onlineManager.setOnline(true);
});

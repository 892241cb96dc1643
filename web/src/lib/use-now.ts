import { useEffect, useState } from 'react';

/** The current time, refreshed every `stepMs` so windows such as "the last 24 h" move on. */
export function useNow(stepMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), stepMs);
    return () => clearInterval(timer);
  }, [stepMs]);
  return now;
}

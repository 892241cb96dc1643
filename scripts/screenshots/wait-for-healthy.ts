/** Waits for the server's /healthz to answer 200 (a minute at most). */
export async function waitForHealthy(baseUrl: string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the server at ${baseUrl} did not become healthy within a minute`);
}

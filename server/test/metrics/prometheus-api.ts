// Reads a real Prometheus' HTTP API (/api/v1/query, /api/v1/alerts) the way an operator's tools do.

export interface PromAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** inactive, pending or firing. */
  state: string;
}

interface ApiAnswer<T> {
  status: string;
  data: T;
  error?: string;
}

async function get<T>(url: string): Promise<T> {
  const response = await fetch(url);
  const answer = (await response.json()) as ApiAnswer<T>;
  if (answer.status !== 'success') throw new Error(`${url}: ${answer.error ?? response.status}`);
  return answer.data;
}

/** An instant query's vector: each series' labels and [time, value]. */
export async function prometheusQuery(
  prometheusUrl: string,
  query: string,
): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
  const data = await get<{ result: { metric: Record<string, string>; value: [number, string] }[] }>(
    `${prometheusUrl}/api/v1/query?query=${encodeURIComponent(query)}`,
  );
  return data.result;
}

/** The alerts Prometheus holds now (pending or firing) of rule `alertname`. */
export async function prometheusAlerts(
  prometheusUrl: string,
  alertname: string,
): Promise<PromAlert[]> {
  const data = await get<{ alerts: PromAlert[] }>(`${prometheusUrl}/api/v1/alerts`);
  return data.alerts.filter((alert) => alert.labels.alertname === alertname);
}

/** Polls `check` until it returns something truthy, and returns that; fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found) return found;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

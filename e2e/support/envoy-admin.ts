/** Requests each upstream host of a cluster has served, from Envoy's admin `/clusters`. */
export async function upstreamRequests(
  adminUrl: string,
  cluster = 'store_grpc',
): Promise<Map<string, number>> {
  const text = await (await fetch(`${adminUrl}/clusters`)).text();
  const served = new Map<string, number>();
  for (const match of text.matchAll(
    new RegExp(`^${cluster}::([\\d.]+:\\d+)::rq_total::(\\d+)$`, 'gm'),
  ))
    served.set(match[1]!, Number(match[2]));
  return served;
}

/** One counter or gauge from Envoy's admin `/stats`. */
export async function envoyStat(adminUrl: string, name: string): Promise<number> {
  const text = await (
    await fetch(`${adminUrl}/stats?filter=^${name.replace(/\./g, '\\.')}$`)
  ).text();
  const value = new RegExp(`^${name.replace(/\./g, '\\.')}: (\\d+)$`, 'm').exec(text)?.[1];
  if (value === undefined) throw new Error(`Envoy has no stat ${name}:\n${text}`);
  return Number(value);
}

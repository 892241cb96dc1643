import { create, type DescMethod, type DescService } from '@bufbuild/protobuf';
import type { Code } from '@connectrpc/connect';
import { ConnectError, createClient, type Transport } from '@connectrpc/connect';

/** The outcome of one call: OK or the gRPC code it failed with. */
export type Outcome = 'ok' | Code;

/**
 * Calls one method with a plausible request (ids filled in so target ids exist) and reports the
 * outcome; server streams are drained.
 */
export async function callMethod(
  transport: Transport,
  service: DescService,
  method: DescMethod,
  headers: Record<string, string>,
): Promise<Outcome> {
  const client = createClient(service, transport) as unknown as Record<
    string,
    (req: unknown, opts: { headers: Record<string, string> }) => unknown
  >;
  const input = create(method.input, plausible(method)) as unknown;
  const fn = client[method.localName];
  if (!fn) throw new Error(`no client method ${method.localName}`);
  try {
    if (method.methodKind === 'server_streaming') {
      for await (const _ of fn(input, { headers }) as AsyncIterable<unknown>) void _;
    } else {
      await fn(input, { headers });
    }
    return 'ok';
  } catch (error) {
    return ConnectError.from(error).code;
  }
}

function plausible(method: DescMethod): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of method.input.fields) {
    if (field.localName === 'treeId') values.treeId = 'orders';
    if (field.localName === 'backupId') values.backupId = 'b-1';
    if (field.localName === 'artifactId') values.artifactId = 'part-00001';
    if (field.localName === 'operationId') values.operationId = 'op-1';
    if (field.localName === 'key') values.key = 'k';
    if (field.localName === 'valueJson') values.valueJson = '1';
    if (field.localName === 'scope') values.scope = { treeId: 'orders' };
  }
  return values;
}

/** Every method of the given services, as [service, method] pairs. */
export function everyMethod(services: readonly DescService[]): Array<[DescService, DescMethod]> {
  return services.flatMap((service) =>
    service.methods.map((m) => [service, m] as [DescService, DescMethod]),
  );
}

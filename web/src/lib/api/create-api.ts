import { createClient, type Client, type Interceptor, type Transport } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-web';
import {
  BackupControlService,
  BackupInsightService,
  createBackupClient,
  createSchemaClient,
  IdentityService,
  TreeDataService,
  type BackupClient,
  type SchemaClient,
} from '@store/contract';
import type { SessionStore } from '../session/session-store';
import { createConnectivityInterceptor } from '../connectivity/connectivity-interceptor';
import type { ConnectivityStore } from '../connectivity/connectivity-store';
import { withReusedBufferStreams } from './reused-buffer-streams';
import { createSessionInterceptor } from './session-interceptor';

/** The console's one API layer: a transport with the session's headers and its four clients. */
export interface Api {
  transport: Transport;
  /** BackupControlService through the typed client (argument checks, null for absent). */
  backup: BackupClient;
  /** SchemaControlService through the typed client. */
  schema: SchemaClient;
  /** TreeDataService (not in the specs; no typed client). */
  data: Client<typeof TreeDataService>;
  /** IdentityService (WhoAmI, ListAuditRecords). */
  identity: Client<typeof IdentityService>;
  /** BackupInsightService: restore previews and backup diffs (not in the specs). */
  backupInsight: Client<typeof BackupInsightService>;
}

/** Builds a transport around the given interceptors; tests pass connect's router transport. */
export type TransportFactory = (interceptors: Interceptor[]) => Transport;

/**
 * gRPC-Web to the origin that served the console: the server itself or the Envoy edge. An
 * export's stream is read into one reused buffer, so a GiB leaves no GiB of garbage in the tab.
 */
export const grpcWebTransport: TransportFactory = (interceptors) => {
  const baseUrl = window.location.origin;
  return withReusedBufferStreams(createGrpcWebTransport({ baseUrl, interceptors }), {
    baseUrl,
    interceptors,
    methods: [BackupControlService.method.exportArtifact],
  });
};

export function createApi(
  session: SessionStore,
  factory: TransportFactory = grpcWebTransport,
  connectivity?: ConnectivityStore,
): Api {
  const interceptors = [createSessionInterceptor(session)];
  if (connectivity) interceptors.push(createConnectivityInterceptor(connectivity));
  const transport = factory(interceptors);
  return {
    transport,
    backup: createBackupClient(transport),
    schema: createSchemaClient(transport),
    data: createClient(TreeDataService, transport),
    identity: createClient(IdentityService, transport),
    backupInsight: createClient(BackupInsightService, transport),
  };
}

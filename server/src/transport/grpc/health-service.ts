import type { ConnectRouter } from '@connectrpc/connect';
import { Code, ConnectError } from '@connectrpc/connect';
import {
  Health,
  HealthCheckResponse_ServingStatus as ServingStatus,
} from '@store/contract/gen/grpc/health/v1/health_pb.js';

/**
 * Serving status per service name ('' is the whole server), for grpc.health.v1.Health. Envoy's
 * grpc_health_check and container health checks read it; shutdown flips it to NOT_SERVING first
 * so the proxy stops routing before connections close.
 */
export class HealthRegistry {
  private readonly statuses = new Map<string, ServingStatus>();
  private readonly watchers = new Set<() => void>();
  private closing = false;

  constructor(services: readonly string[]) {
    for (const name of ['', ...services]) this.statuses.set(name, ServingStatus.NOT_SERVING);
  }

  /** Sets every service's status at once. */
  setAll(status: ServingStatus): void {
    for (const name of this.statuses.keys()) this.statuses.set(name, status);
    for (const wake of this.watchers) wake();
  }

  /** Shutdown: every service NOT_SERVING, and open Watch streams end after saying so. */
  close(): void {
    this.closing = true;
    this.setAll(ServingStatus.NOT_SERVING);
  }

  get closed(): boolean {
    return this.closing;
  }

  get(service: string): ServingStatus | undefined {
    return this.statuses.get(service);
  }

  entries(): [string, ServingStatus][] {
    return [...this.statuses.entries()];
  }

  /** Resolves on the next change, or when the signal aborts. */
  changed(signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        this.watchers.delete(wake);
        signal.removeEventListener('abort', wake);
        resolve();
      };
      this.watchers.add(wake);
      signal.addEventListener('abort', wake, { once: true });
    });
  }
}

/** Registers grpc.health.v1.Health (Check, List, Watch) on the router. */
export function registerHealthService(router: ConnectRouter, registry: HealthRegistry): void {
  router.service(Health, {
    check(request) {
      const status = registry.get(request.service);
      if (status === undefined) {
        throw new ConnectError(`unknown service ${request.service}`, Code.NotFound);
      }
      return { status };
    },
    list() {
      return {
        statuses: Object.fromEntries(
          registry.entries().map(([name, status]) => [name, { status }]),
        ),
      };
    },
    async *watch(request, context) {
      let last: ServingStatus | undefined;
      while (!context.signal.aborted) {
        const status = registry.get(request.service) ?? ServingStatus.SERVICE_UNKNOWN;
        if (status !== last) {
          last = status;
          yield { status };
        }
        if (registry.closed) return;
        await registry.changed(context.signal);
      }
    },
  });
}

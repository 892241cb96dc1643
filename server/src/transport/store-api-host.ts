import type { ConnectRouter, Interceptor } from '@connectrpc/connect';
import type { SignInLimiter } from '../engines/audit/sign-in-limiter.js';
import type { CredentialVerifier } from '../engines/identity/credential-verifier.js';
import { CredentialError } from '../engines/identity/principal.js';
import type { Logger } from '../logging/logger.js';
import { createAccessInterceptor } from './auth/access-interceptor.js';
import { denyAllAuthorizer, type Authorizer } from './auth/authorizers.js';
import { headerCredentialBridge, type CredentialBridge } from './auth/credential-bridge.js';
import {
  BACKUP_SERVICE,
  DATA_SERVICE,
  IDENTITY_SERVICE,
  SCHEMA_SERVICE,
  type GuardedService,
} from './auth/operation-maps.js';
import { defaultStoreApiOptions, type StoreApiOptions } from './auth/options.js';

/** What a host may set when it adds an API (the spec's `configure` delegate). */
export interface StoreApiSetup {
  options: StoreApiOptions;
  /** A host-registered authorizer wins over the default deny-all. */
  authorizer?: Authorizer;
  /** A host-registered bridge replaces the header bridge. */
  bridge?: CredentialBridge;
  verify?: CredentialVerifier;
  /** Limits failed sign-ins per client address (the shipped server sets one). */
  signInLimiter?: SignInLimiter;
}

/**
 * Collects the routes and interceptors of the APIs a host adds, for connectNodeAdapter (the
 * spec's service provider plus endpoint mapping, in connect's shape).
 */
export class StoreApiHost {
  private readonly routeFns: Array<(router: ConnectRouter) => void> = [];
  private readonly registered = new Set<string>();
  readonly interceptors: Interceptor[] = [];

  constructor(readonly logger: Logger) {}

  /** Adds a service's routes once; a repeated registration keeps the first (spec: guarded). */
  addRoutes(key: string, routes: (router: ConnectRouter) => void): void {
    if (this.registered.has(key)) return;
    this.registered.add(key);
    this.routeFns.push(routes);
  }

  /** Every registered route, for both listeners. */
  routes = (router: ConnectRouter): void => {
    for (const fn of this.routeFns) fn(router);
  };
}

const refuseAll: CredentialVerifier = async () => {
  throw new CredentialError('unknown', 'no credential verifier is registered');
};

/**
 * Adds a guarded service family to the host: its routes (once) and its authorization interceptor
 * (again on every call, as the spec warns: two calls run the interceptor twice per RPC).
 */
export function addGuardedApi(
  host: StoreApiHost,
  service: GuardedService,
  routes: (router: ConnectRouter) => void,
  configure?: (setup: StoreApiSetup) => void,
): StoreApiSetup {
  if (host === null || host === undefined) throw new TypeError('host is required');
  const setup: StoreApiSetup = { options: defaultStoreApiOptions() };
  configure?.(setup);
  host.addRoutes(service.prefix, routes);
  host.interceptors.push(
    createAccessInterceptor(service, {
      options: setup.options,
      bridge: setup.bridge ?? headerCredentialBridge(setup.options),
      verify: setup.verify ?? refuseAll,
      authorizer: setup.authorizer ?? denyAllAuthorizer,
      logger: host.logger,
      signInLimiter: setup.signInLimiter,
    }),
  );
  return setup;
}

export { BACKUP_SERVICE, SCHEMA_SERVICE, DATA_SERVICE, IDENTITY_SERVICE };

import type { ConnectRouter, Interceptor } from '@connectrpc/connect';
import type { SignInLimiter } from '../engines/audit/sign-in-limiter.js';
import type { CredentialVerifier } from '../engines/identity/credential-verifier.js';
import { CredentialError } from '../engines/identity/principal.js';
import type { Logger } from '../logging/logger.js';
import { createAccessInterceptor } from './auth/access-interceptor.js';
import { denyAllAuthorizer, type Authorizer } from './auth/authorizers.js';
import { headerCredentialBridge, type CredentialBridge } from './auth/credential-bridge.js';
import { type GuardedService } from './auth/method-access.js';
import { BACKUP_SERVICE } from './backup/backup-access.js';
import { DATA_SERVICE } from './data/data-access.js';
import { IDENTITY_SERVICE } from './identity/identity-access.js';
import { SCHEMA_SERVICE } from './schema/schema-access.js';
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
  /** Per guarded service (by prefix): its first registration, which repeat calls build on. */
  readonly guardedRegistrations = new Map<string, GuardedRegistration>();
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

/** The seams of a guarded service: fixed by its first registration. */
type Seams = Required<Pick<StoreApiSetup, 'authorizer' | 'bridge' | 'verify'>> &
  Pick<StoreApiSetup, 'signInLimiter'>;
const SEAM_NAMES = ['authorizer', 'bridge', 'verify', 'signInLimiter'] as const;

/** A guarded service's first registration: the setup later calls layer onto, and its seams. */
export interface GuardedRegistration {
  setup: StoreApiSetup;
  /** The options object every interceptor of the service reads (layered by repeat calls). */
  options: StoreApiOptions;
  /** The seams as the first call's configure left them on `setup` (unset: the default). */
  firstSetupSeams: Pick<StoreApiSetup, (typeof SEAM_NAMES)[number]>;
  seams: Seams;
}

/**
 * The built-in header bridge over the layered options: a later registration's configure may
 * change the header name or scheme, and every interceptor of the service reads them at call time.
 */
function layeredHeaderBridge(options: StoreApiOptions): CredentialBridge {
  let built: { header: string; scheme: string; bridge: CredentialBridge } | undefined;
  return {
    resolve(call) {
      const { credentialHeaderName: header, credentialScheme: scheme } = options;
      if (built?.header !== header || built.scheme !== scheme) {
        built = { header, scheme, bridge: headerCredentialBridge(options) };
      }
      return built.bridge.resolve(call);
    },
  };
}

/**
 * Puts the first registration's seams back on a repeat call's setup: a service and seam
 * registration is guarded against duplicates and keeps the first (spec 001, Host setup). A
 * repeat that tried to replace one is logged, since it has no effect.
 */
function keepFirstSeams(host: StoreApiHost, service: GuardedService, first: GuardedRegistration) {
  const { setup, firstSetupSeams } = first;
  for (const name of SEAM_NAMES) {
    if (setup[name] === firstSetupSeams[name]) continue;
    host.logger.warn(
      { service: service.prefix, seam: name },
      `a repeat registration of ${service.prefix} keeps the first registration's ${name}`,
    );
    const kept = firstSetupSeams[name];
    if (kept === undefined) delete setup[name];
    else Object.assign(setup, { [name]: kept });
  }
}

/**
 * The service's interceptors and header bridge hold the first registration's options object; a
 * repeat configure that assigned a new one (as the shipped host's does) has its values moved
 * into that object, so they still reach every interceptor.
 */
function keepOptionsIdentity(first: GuardedRegistration, setup: StoreApiSetup) {
  if (setup.options === first.options) return;
  const replacement = setup.options as unknown as Record<string, unknown>;
  const kept = first.options as unknown as Record<string, unknown>;
  for (const key of Object.keys(kept)) if (!(key in replacement)) delete kept[key];
  Object.assign(kept, replacement);
  setup.options = first.options;
}

/**
 * Adds a guarded service family to the host: its routes and seams once, and its authorization
 * interceptor again on every call, as the specs' Host setup rules say. A repeat call's configure
 * runs on the same setup the earlier calls configured (spec 000: "each call layers its configure
 * delegate"), so every interceptor of the service reads the layered options; its seams
 * (authorizer, credential bridge, verifier, sign-in limiter) stay the first registration's
 * (spec 001: "a repeat call keeps the first registration"); two calls run the interceptor, and
 * so the first registration's authorizer, twice per RPC.
 */
export function addGuardedApi(
  host: StoreApiHost,
  service: GuardedService,
  routes: (router: ConnectRouter) => void,
  configure?: (setup: StoreApiSetup) => void,
): StoreApiSetup {
  if (host === null || host === undefined) throw new TypeError('host is required');
  const first = host.guardedRegistrations.get(service.prefix);
  const setup: StoreApiSetup = first?.setup ?? { options: defaultStoreApiOptions() };
  configure?.(setup);
  let registration = first;
  if (registration) {
    keepFirstSeams(host, service, registration);
    keepOptionsIdentity(registration, setup);
  } else {
    registration = {
      setup,
      options: setup.options,
      firstSetupSeams: {
        authorizer: setup.authorizer,
        bridge: setup.bridge,
        verify: setup.verify,
        signInLimiter: setup.signInLimiter,
      },
      seams: {
        authorizer: setup.authorizer ?? denyAllAuthorizer,
        bridge: setup.bridge ?? layeredHeaderBridge(setup.options),
        verify: setup.verify ?? refuseAll,
        signInLimiter: setup.signInLimiter,
      },
    };
    host.guardedRegistrations.set(service.prefix, registration);
  }
  host.addRoutes(service.prefix, routes);
  host.interceptors.push(
    createAccessInterceptor(service, {
      options: setup.options,
      ...registration.seams,
      logger: host.logger,
    }),
  );
  return setup;
}

export { BACKUP_SERVICE, SCHEMA_SERVICE, DATA_SERVICE, IDENTITY_SERVICE };

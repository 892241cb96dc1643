import type { DescMessage } from '@bufbuild/protobuf';
import { Code, ConnectError, type Interceptor, type StreamResponse } from '@connectrpc/connect';
import { credentialValue, SESSION_ENDED_NOTICE, type SessionStore } from '../session/session-store';

/** DESIGN.md §2 runtime names: STORE_ACTIVE_TENANT_HEADER's default. */
export const ACTIVE_TENANT_HEADER = 'store-active-tenant';

/** Methods the server exempts from authentication (DESIGN.md §4, step 1); sent without a credential. */
const ANONYMOUS_METHODS = new Set(['GetAuthScheme']);

/**
 * Adds the session's credential and active tenant to every call, and ends the session when the
 * server refuses that credential (Unauthenticated), so the app returns to sign-in with a notice.
 * A header the caller set itself wins: sign-in verifies a candidate token that way, and its
 * refusal must not end a session that does not exist yet.
 */
export function createSessionInterceptor(store: SessionStore): Interceptor {
  return (next) => async (request) => {
    const session = store.session;
    let sentSessionCredential = false;
    if (session && !ANONYMOUS_METHODS.has(request.method.name)) {
      if (!request.header.has(session.placement.header)) {
        request.header.set(session.placement.header, credentialValue(session));
        sentSessionCredential = true;
      }
      if (session.tenant && !request.header.has(ACTIVE_TENANT_HEADER)) {
        request.header.set(ACTIVE_TENANT_HEADER, session.tenant);
      }
    }
    const refused = (error: unknown): never => {
      // Only the session that made the call ends; a late answer to an older session's call
      // must not sign out a newer one.
      if (
        sentSessionCredential &&
        ConnectError.from(error).code === Code.Unauthenticated &&
        store.session?.token === session?.token
      ) {
        store.end(SESSION_ENDED_NOTICE);
      }
      throw error;
    };
    try {
      const response = await next(request);
      // Server streams (backup catalog, export, dead letters) fail while they are read.
      return response.stream ? watchStream(response, refused) : response;
    } catch (error) {
      return refused(error);
    }
  };
}

function watchStream<I extends DescMessage, O extends DescMessage>(
  response: StreamResponse<I, O>,
  refused: (error: unknown) => never,
): StreamResponse<I, O> {
  const messages = response.message;
  return {
    ...response,
    message: (async function* () {
      try {
        yield* messages;
      } catch (error) {
        refused(error);
      }
    })(),
  };
}

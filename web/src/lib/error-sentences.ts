import { Code } from '@connectrpc/connect';
import { rpcMethodWords } from './words';

/** What the console says about a failure: what happened and what to do next, in sentences. */
export interface ErrorSentences {
  what: string;
  next: string;
}

/** The command that makes an API token, as the token CLI's usage prints it. */
export const TOKEN_CREATE_COMMAND =
  'npm run token -- create --tenant <tenant> --role <viewer|operator|admin> --name <text>';

const TOKEN_HOME =
  "API tokens belong to one server's data directory (or PostgreSQL schema): a token made for " +
  'another server, or for another STORE_DATA_DIR or DATABASE_URL, is unknown here.';

const MAKE_TOKEN =
  `Make one for this server with \`${TOKEN_CREATE_COMMAND}\`, run with the same STORE_DATA_DIR ` +
  'or DATABASE_URL as the server, and sign in with the token it prints.';

/** A call that never reached the server (lib/connectivity): the network, not the server. */
export const NETWORK_SENTENCES: ErrorSentences = {
  what: 'The console could not reach the server.',
  next:
    'Check that it is running and reachable from this browser; the console keeps trying ' +
    'and refreshes by itself once it answers.',
};

/** "backup b-1 has dependants" → "Backup b-1 has dependants." */
export function asSentence(message: string): string {
  const text = message.trim().replace(/[.:;,\s]+$/, '');
  if (text === '') return '';
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** The sentence for a generic failure: a lead-in, then the server's message when it sent one. */
function said(lead: string, message: string): string {
  const sentence = asSentence(message);
  return sentence === ''
    ? `${lead}.`
    : `${lead}: ${sentence.charAt(0).toLowerCase()}${sentence.slice(1)}`;
}

/** Refused credentials, by the server's reason (engines/identity: CredentialError messages). */
function credentialSentences(message: string): ErrorSentences | undefined {
  if (/unknown API token/i.test(message)) {
    return { what: `The server does not know this API token. ${TOKEN_HOME}`, next: MAKE_TOKEN };
  }
  if (/API token was revoked/i.test(message)) {
    return {
      what: 'This API token was revoked.',
      next: `Sign in with another token. An admin makes one with \`${TOKEN_CREATE_COMMAND}\`.`,
    };
  }
  if (/API token has expired/i.test(message)) {
    return {
      what: 'This API token has expired.',
      next: `Sign in with a current token; \`${TOKEN_CREATE_COMMAND} --ttl 30d\` makes one that lasts 30 days.`,
    };
  }
  if (/access token has expired/i.test(message)) {
    return { what: 'Your single sign-on session has expired.', next: 'Sign in again.' };
  }
  if (/API tokens are not enabled/i.test(message)) {
    return {
      what: 'This server does not accept API tokens.',
      next: 'Sign in with single sign-on instead.',
    };
  }
  if (/single sign-on is not configured/i.test(message)) {
    return {
      what: 'This server has no single sign-on.',
      next: `Sign in with an API token (\`${TOKEN_CREATE_COMMAND}\` makes one).`,
    };
  }
  if (/malformed/i.test(message)) {
    return {
      what: 'The token is not in the form the server expects.',
      next: 'Paste the whole token exactly as the token CLI printed it.',
    };
  }
  if (/authentication required/i.test(message)) {
    return {
      what: 'This server needs you to sign in.',
      next: 'Sign in with an API token or single sign-on.',
    };
  }
  return undefined;
}

/** PermissionDenied names the RPC ("StartAdvanceAndMigrate is not permitted for this caller"). */
function permissionSentences(message: string): ErrorSentences {
  const tenant = /^tenant (\S+) is not granted/.exec(message);
  if (tenant) {
    return {
      what: `You have no access to tenant ${tenant[1]}.`,
      next: 'Switch to a tenant you are granted, or ask an admin for a token of this tenant.',
    };
  }
  const method = /^(\S+) is not permitted/.exec(message);
  const what = method
    ? `Your role does not allow “${rpcMethodWords(method[1] as string).words}” in this tenant.`
    : said('Your role does not allow this', message);
  return {
    what,
    next: 'Ask an admin for a token with a role that does (operator or admin), or switch tenant.',
  };
}

/** Every gRPC code's sentences; `message` is the server's own text. */
export function sentencesFor(code: Code, message: string): ErrorSentences {
  switch (code) {
    case Code.Canceled:
      return {
        what: 'The request was cancelled before it finished.',
        next: 'Send it again if you still need it.',
      };
    case Code.Unknown:
      return {
        what: said('Something failed that the server did not explain', message),
        next: "Try again; if it keeps failing, the server's log says more.",
      };
    case Code.InvalidArgument:
      return {
        what: said('The server refused a value in the request', message),
        next: 'Correct that value and send it again.',
      };
    case Code.DeadlineExceeded:
      return {
        what: 'The server did not answer in time.',
        next: 'Try again; for a large request, narrow it (a key prefix, a smaller page).',
      };
    case Code.NotFound:
      return {
        what: said('It does not exist', message),
        next: 'Check the name or id: it may have been deleted, or belong to another tenant.',
      };
    case Code.AlreadyExists:
      return {
        what: said('It already exists', message),
        next: 'Use the existing one, or choose another name or id.',
      };
    case Code.PermissionDenied:
      return permissionSentences(message);
    case Code.ResourceExhausted:
      return {
        what: said('A limit was reached', message),
        next: 'Wait a moment and try again, or send less at once.',
      };
    case Code.FailedPrecondition:
      return {
        what: said('This cannot be done in the current state', message),
        next: 'Change what the message names first, then try again.',
      };
    case Code.Aborted:
      // The server's Aborted: an operation whose run stopped before it finished (the server
      // running it stopped, or lost it to another replica).
      return {
        what: said('It stopped before it finished', message),
        next: 'Check what it left (the operation page says), then start it again.',
      };
    case Code.OutOfRange:
      return {
        what: said('A value is out of range', message),
        next: 'Use a value within the range and try again.',
      };
    case Code.Unimplemented:
      return {
        what: said('This server does not support it', message),
        next: 'Update the server, or do it another way.',
      };
    case Code.Internal:
      return {
        what: said('The server failed with an internal error', message),
        next: "Try again; if it keeps failing, the server's log says more.",
      };
    case Code.Unavailable:
      // The server's own Unavailable (what is behind it does not answer); a call that never
      // reached the server reads NETWORK_SENTENCES (lib/errors).
      return {
        what: said('The server cannot do this right now', message),
        next: "Try again in a moment; if it keeps failing, the server's log says more.",
      };
    case Code.DataLoss:
      return {
        what: said('Stored data is damaged or missing', message),
        next: 'Run a health check on the backup; restore from a healthy one if it is corrupt.',
      };
    case Code.Unauthenticated:
      return (
        credentialSentences(message) ?? {
          what: said('The server did not accept your sign-in', message),
          next: 'Sign in again with a valid API token or single sign-on.',
        }
      );
  }
}

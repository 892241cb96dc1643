import type { S3Client } from '@aws-sdk/client-s3';
import { StoreError, type StoreErrorCode } from '../../../errors.js';

/** What an SDK or network error says, for mapping and messages. */
export interface S3ErrorFacts {
  /** The S3 error code (`NoSuchKey`, `SignatureDoesNotMatch`…) or the Node error code. */
  name: string;
  status: number | undefined;
  message: string;
}

const CREDENTIAL_REFUSALS = new Set([
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'AccessDenied',
  'ExpiredToken',
  'InvalidToken',
  'TokenRefreshRequired',
  'CredentialsProviderError',
]);
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'TimeoutError',
  'RequestTimeout',
  'SlowDown',
  'ServiceUnavailable',
  'InternalError',
]);

export function s3ErrorFacts(error: unknown): S3ErrorFacts {
  const value = error as {
    name?: string;
    code?: string;
    message?: string;
    $metadata?: { httpStatusCode?: number };
  };
  const status = value?.$metadata?.httpStatusCode;
  let name = value?.code ?? value?.name ?? 'Error';
  // HEAD answers have no body: the SDK names them by status only.
  if ((name === 'Unknown' || name === 'UnknownError') && status === 403) name = 'AccessDenied';
  if (name === 'NotFound' || ((name === 'Unknown' || name === 'UnknownError') && status === 404))
    name = 'NotFound';
  const message = value?.message === 'UnknownError' ? '' : (value?.message ?? String(error));
  return { name, status, message };
}

export function isCredentialRefusal(facts: S3ErrorFacts): boolean {
  return CREDENTIAL_REFUSALS.has(facts.name) || facts.status === 401 || facts.status === 403;
}

export function isUnreachable(facts: S3ErrorFacts): boolean {
  return UNREACHABLE.has(facts.name) || (facts.status !== undefined && facts.status >= 500);
}

/**
 * Removes every known secret from a message. Messages are built from S3 error codes and texts,
 * which carry no secret, but a proxy's or a provider's text might quote what it was given.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  return out;
}

/** The client's resolved secret and session token, for redaction (none if unresolvable). */
export async function clientSecrets(client: S3Client): Promise<string[]> {
  try {
    const credentials = await client.config.credentials();
    return [credentials.secretAccessKey, credentials.sessionToken ?? ''].filter((s) => s !== '');
  } catch {
    return [];
  }
}

/**
 * A StoreError for an S3 failure while doing `what` (e.g. `reading s3://b/p/k`): the message names
 * the S3 error and never a secret.
 */
export function s3Failure(error: unknown, what: string, secrets: readonly string[] = []): Error {
  if (error instanceof StoreError) return error;
  const facts = s3ErrorFacts(error);
  let code: StoreErrorCode = 'internal';
  if (facts.name === 'AbortError') code = 'cancelled';
  else if (facts.name === 'NoSuchKey' || facts.name === 'NotFound') code = 'not_found';
  else if (facts.name === 'NoSuchBucket' || isCredentialRefusal(facts))
    code = 'failed_precondition';
  else if (isUnreachable(facts)) code = 'unavailable';
  const status = facts.status === undefined ? '' : ` (HTTP ${facts.status})`;
  const detail = facts.message === '' ? '' : `: ${facts.message}`;
  return new StoreError(code, redactSecrets(`${what}: ${facts.name}${status}${detail}`, secrets));
}

import { CredentialError } from '../../src/engines/identity/principal.js';

/** 'ok' when the verification succeeds, else the CredentialError's reason (or the error text). */
export async function reason(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return error instanceof CredentialError ? error.reason : String(error);
  }
}

import { Code, ConnectError } from '@connectrpc/connect';
import { ArgumentError } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { TOKEN_CREATE_COMMAND } from './error-sentences';
import {
  codeFromWire,
  codeNameFromWire,
  describeError,
  explainError,
  explainOperationError,
  isCancellation,
  isPermanent,
  technicalText,
} from './errors';

const ALL_CODES = Object.values(Code).filter((v): v is Code => typeof v === 'number');

describe('explainError', () => {
  it.each(ALL_CODES.map((code) => [Code[code], code] as const))(
    '%s reads as what happened and what to do, with the code and raw message kept',
    (_name, code) => {
      const explained = explainError(new ConnectError('something specific', code));
      expect(explained.what).toMatch(/^[A-Z].*[.]$/);
      expect(explained.next).toMatch(/^[A-Z].*[.]$/);
      expect(explained.what).not.toMatch(/^[A-Z][a-z]+[A-Z]\w*:/); // no "FailedPrecondition:"
      expect(explained.code).toBe(Code[code]);
      expect(explained.raw).toBe('something specific');
      expect(technicalText(explained)).toBe(`${Code[code]}: something specific`);
    },
  );

  it('keeps what the server said inside the sentence', () => {
    const error = new ConnectError('backup b-1 has dependants', Code.FailedPrecondition);
    expect(describeError(error)).toBe(
      'This cannot be done in the current state: backup b-1 has dependants. Change what the message names first, then try again.',
    );
  });

  it('explains a refused token: tokens belong to one data directory, and how to make one', () => {
    const explained = explainError(
      new ConnectError('credential refused: unknown API token', Code.Unauthenticated),
    );
    expect(explained.what).toContain('does not know this API token');
    expect(explained.what).toContain("belong to one server's data directory");
    expect(explained.next).toContain(TOKEN_CREATE_COMMAND);
    expect(TOKEN_CREATE_COMMAND).toMatch(/^npm run token -- create --tenant <tenant> --role /);
    expect(explained.raw).toBe('credential refused: unknown API token');
  });

  it('names the refused RPC in words for PermissionDenied', () => {
    const explained = explainError(
      new ConnectError(
        'StartAdvanceAndMigrate is not permitted for this caller',
        Code.PermissionDenied,
      ),
    );
    expect(explained.what).toBe('Your role does not allow “Advance and migrate” in this tenant.');
  });

  it('explains a check the typed client made before sending', () => {
    const explained = explainError(new ArgumentError('backupId', 'must be a non-empty string'));
    expect(explained.what).toBe(
      'The console refused the request before sending it: backupId: must be a non-empty string.',
    );
    expect(explained.code).toBe('ArgumentError');
  });
});

describe('operation errors', () => {
  it("reads an operation error's wire code", () => {
    expect(codeNameFromWire('data_loss')).toBe('DataLoss');
    expect(codeFromWire('failed_precondition')).toBe(Code.FailedPrecondition);
    expect(codeFromWire('nonsense')).toBe(Code.Unknown);
    expect(
      explainOperationError({ code: 'data_loss', message: 'artifact part-00001 failed' }).what,
    ).toBe('Stored data is damaged or missing: artifact part-00001 failed.');
  });

  it('treats a cancel as a cancel, not a failure', () => {
    expect(isCancellation({ code: 'cancelled' })).toBe(true);
    expect(isCancellation({ code: 'internal' })).toBe(false);
    expect(isCancellation(undefined)).toBe(false);
  });
});

describe('isPermanent', () => {
  it('retries only failures a retry can fix', () => {
    expect(isPermanent(new ConnectError('down', Code.Unavailable))).toBe(false);
    expect(isPermanent(new ConnectError('no', Code.PermissionDenied))).toBe(true);
    expect(isPermanent(new TypeError('request is required'))).toBe(true);
  });
});

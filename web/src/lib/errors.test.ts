import { Code, ConnectError } from '@connectrpc/connect';
import { ArgumentError } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { codeNameFromWire, describeError, isPermanent } from './errors';

describe('describeError', () => {
  it('names the gRPC code and the server message', () => {
    const error = new ConnectError('backup b-1 has dependants', Code.FailedPrecondition);
    expect(describeError(error)).toBe('FailedPrecondition: backup b-1 has dependants');
  });

  it('names a client-side argument check by its error type', () => {
    expect(describeError(new ArgumentError('backupId', 'must be a non-empty string'))).toBe(
      'ArgumentError: backupId: must be a non-empty string',
    );
  });
});

describe('codeNameFromWire', () => {
  it("reads an operation error's code in Connect's spelling as the code name", () => {
    expect(codeNameFromWire('data_loss')).toBe('DataLoss');
    expect(codeNameFromWire('failed_precondition')).toBe('FailedPrecondition');
    expect(codeNameFromWire('')).toBe('Unknown');
  });
});

describe('isPermanent', () => {
  it('retries only failures a retry can fix', () => {
    expect(isPermanent(new ConnectError('down', Code.Unavailable))).toBe(false);
    expect(isPermanent(new ConnectError('no', Code.PermissionDenied))).toBe(true);
    expect(isPermanent(new TypeError('request is required'))).toBe(true);
  });
});

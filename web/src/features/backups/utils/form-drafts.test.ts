import { StoreRestoreMode } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { captureRequest, checkCapture, emptyCaptureDraft } from './capture-draft';
import { checkRestore, EMPTY_RESTORE, restoreRequest } from './restore-draft';

describe('start backup form checks', () => {
  it('a full backup needs a name and a valid tree', () => {
    expect(checkCapture(emptyCaptureDraft('full'))).toEqual({
      name: 'Name is required',
      treeId: 'Tree is required',
    });
    const bad = { ...emptyCaptureDraft('full', '../etc'), name: 'nightly' };
    expect(checkCapture(bad).treeId).toMatch(/A–Z, a–z, 0–9/);
    expect(checkCapture({ ...bad, treeId: 'orders' })).toEqual({});
  });

  it('a name or tree over its limit is refused with both lengths, never cut (issue 33)', () => {
    const long = { ...emptyCaptureDraft('full', 'a'.repeat(175)), name: 'n'.repeat(201) };
    expect(checkCapture(long)).toEqual({
      name: 'A backup name holds at most 200 characters; this one has 201 (nothing was cut)',
      treeId: 'Tree name holds at most 128 characters; this one has 175 (nothing was cut)',
    });
  });

  it('page size is blank (server default) or 1 to 10 000', () => {
    const draft = { ...emptyCaptureDraft('full', 'orders'), name: 'n' };
    for (const ok of ['', '1', '10000']) {
      expect(checkCapture({ ...draft, pageSize: ok })).toEqual({});
    }
    for (const bad of ['0', '10001', '2.5', 'abc', '-3']) {
      expect(checkCapture({ ...draft, pageSize: bad }).pageSize).toBe(
        'Page size must be a whole number from 1 to 10,000',
      );
    }
    expect(captureRequest({ ...draft, pageSize: '' }).request.pageSize).toBe(0);
    expect(captureRequest({ ...draft, pageSize: '250' }).request.pageSize).toBe(250);
  });

  it('the throttle is blank (unpaced, not sent) or a whole number of entries a second', () => {
    const draft = { ...emptyCaptureDraft('full', 'orders'), name: 'n' };
    expect(checkCapture({ ...draft, maxEntriesPerSecond: '5000' })).toEqual({});
    for (const bad of ['0', '2.5', 'fast', '-1', '4294967296']) {
      expect(checkCapture({ ...draft, maxEntriesPerSecond: bad }).maxEntriesPerSecond).toMatch(
        /Throttle must be a whole number/,
      );
    }
    expect(captureRequest(draft).request).not.toHaveProperty('maxEntriesPerSecond');
    expect(
      captureRequest({ ...draft, maxEntriesPerSecond: '5000' }).request.maxEntriesPerSecond,
    ).toBe(5000);
  });

  it('an incremental needs its base; the request names it', () => {
    const draft = { ...emptyCaptureDraft('incremental', 'orders'), name: 'inc' };
    expect(checkCapture(draft)).toEqual({ baseBackupId: 'Pick the backup to build on' });
    const request = captureRequest({ ...draft, baseBackupId: 'bk-1', keyPrefix: 'a/' });
    expect(request).toEqual({
      kind: 'incremental',
      request: {
        name: 'inc',
        scope: { treeId: 'orders', keyPrefix: 'a/' },
        pageSize: 0,
        baseBackupId: 'bk-1',
      },
    });
  });

  it('a set needs two distinct trees and carries the consistency choice', () => {
    const draft = { ...emptyCaptureDraft('set'), name: 'all' };
    expect(checkCapture({ ...draft, setTreeIds: ['a'] }).setTreeIds).toBe(
      'Pick at least two trees for a set',
    );
    expect(checkCapture({ ...draft, setTreeIds: ['a', 'b'] })).toEqual({});
    const request = captureRequest({
      ...draft,
      setTreeIds: ['a', 'b'],
      crossTreeConsistent: false,
    });
    expect(request.request).toMatchObject({
      scopes: [{ treeId: 'a' }, { treeId: 'b' }],
      crossTreeConsistent: false,
    });
  });
});

describe('restore form checks', () => {
  it('a new draft restores into a new tree, never in place', () => {
    expect(EMPTY_RESTORE.mode).toBe(StoreRestoreMode.NEW_TREE);
    expect(EMPTY_RESTORE.targetTreeId).toBe('');
  });

  it('NEW_TREE needs a valid target tree; IN_PLACE and SHADOW do not', () => {
    const inPlace = { ...EMPTY_RESTORE, mode: StoreRestoreMode.IN_PLACE };
    expect(checkRestore(inPlace, false)).toEqual({});
    expect(checkRestore({ ...EMPTY_RESTORE, mode: StoreRestoreMode.SHADOW }, false)).toEqual({});
    const newTree = { ...EMPTY_RESTORE, mode: StoreRestoreMode.NEW_TREE };
    expect(checkRestore(newTree, false).targetTreeId).toBe('Target tree is required');
    expect(checkRestore({ ...newTree, targetTreeId: 'a b' }, false).targetTreeId).toMatch(/A–Z/);
    expect(checkRestore({ ...newTree, targetTreeId: 'copy' }, false)).toEqual({});
    expect(checkRestore({ ...newTree, targetTreeId: 'c'.repeat(129) }, false).targetTreeId).toBe(
      'Target tree name holds at most 128 characters; this one has 129 (nothing was cut)',
    );
  });

  it('the batch size is checked like the page size, the override only when needed', () => {
    expect(checkRestore({ ...EMPTY_RESTORE, applyBatchSize: '20000' }, false).applyBatchSize).toBe(
      'Apply batch size must be a whole number from 1 to 10,000',
    );
    const inPlace = { ...EMPTY_RESTORE, mode: StoreRestoreMode.IN_PLACE };
    expect(checkRestore(inPlace, true).healthOverride).toMatch(/failed its health check/);
    expect(checkRestore({ ...inPlace, healthOverride: true }, true)).toEqual({});
  });

  it('the request scopes the key prefix to the backup’s tree and names only a NEW_TREE target', () => {
    const draft = {
      ...EMPTY_RESTORE,
      mode: StoreRestoreMode.IN_PLACE,
      keyPrefix: 'users/',
      applyBatchSize: '500',
    };
    expect(restoreRequest('bk-1', 'orders', draft)).toEqual({
      backupId: 'bk-1',
      mode: StoreRestoreMode.IN_PLACE,
      applyBatchSize: 500,
      scope: { treeId: 'orders', keyPrefix: 'users/' },
    });
    const copy = { ...EMPTY_RESTORE, mode: StoreRestoreMode.NEW_TREE, targetTreeId: 'copy' };
    expect(restoreRequest('bk-1', 'orders', copy)).toMatchObject({ targetTreeId: 'copy' });
  });
});

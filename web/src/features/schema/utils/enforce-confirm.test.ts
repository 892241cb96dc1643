import { describe, expect, it } from 'vitest';
import { StoreSchemaMode } from '@store/contract';
import {
  enforceConsequence,
  enforceUnknown,
  needsEnforceConfirm,
  sameSchema,
  storedShape,
} from './enforce-confirm';

const SCHEMA = '{"required":["name"]}';

describe('when saving a policy asks first', () => {
  it('asks for a new Enforce policy, an Audit one switched to Enforce, another schema under Enforce', () => {
    expect(needsEnforceConfirm(null, { jsonSchema: SCHEMA, mode: 'ENFORCE' })).toBe(true);
    expect(
      needsEnforceConfirm(
        { jsonSchema: SCHEMA, enforce: false },
        { jsonSchema: SCHEMA, mode: 'ENFORCE' },
      ),
    ).toBe(true);
    expect(
      needsEnforceConfirm(
        { jsonSchema: SCHEMA, enforce: true },
        { jsonSchema: '{"required":["name","age"]}', mode: 'ENFORCE' },
      ),
    ).toBe(true);
  });

  it('does not ask for Audit, nor for the same schema under Enforce however it is indented', () => {
    expect(needsEnforceConfirm(null, { jsonSchema: SCHEMA, mode: 'AUDIT' })).toBe(false);
    expect(
      needsEnforceConfirm(
        { jsonSchema: SCHEMA, enforce: true },
        { jsonSchema: '{\n  "required": [\n    "name"\n  ]\n}', mode: 'ENFORCE' },
      ),
    ).toBe(false);
  });

  it('compares schemas by what they say, not by their spacing', () => {
    expect(sameSchema('{"a": 1}', '{\n "a":1\n}')).toBe(true);
    expect(sameSchema('{"a":1}', '{"a":2}')).toBe(false);
    expect(sameSchema('{"a":1', '{"a":1')).toBe(true);
    expect(sameSchema('{"a":1', '{"a": 1')).toBe(false);
  });
});

describe('the consequence in words', () => {
  it('repeats the dry run: how many existing entries fail, what new writes get', () => {
    expect(enforceConsequence({ failing: 300n, scanned: 300n })).toBe(
      '300 of 300 existing entries would fail this schema; from now on a write that fails it is refused and sent to dead letters.',
    );
    expect(enforceConsequence({ failing: 0n, scanned: 1n })).toBe(
      'None of the 1 existing entry would fail this schema; from now on a write that fails it is refused and sent to dead letters.',
    );
  });
});

describe('the remediation confirm and the confirm without numbers', () => {
  it('says what the run does to failing entries, and when new writes start to be refused', () => {
    expect(enforceConsequence({ failing: 2n, scanned: 3n }, 'remediation')).toBe(
      '2 of 3 existing entries fail the target schema now; each gets the transform and goes to dead letters if it still fails. Once the run succeeds, a write that fails the schema is refused and sent to dead letters.',
    );
  });

  it('says why the numbers are not known', () => {
    expect(enforceUnknown('policy', 'none')).toBe(
      'No dry run of this draft has been run, so how many existing entries would fail it is not known. From now on a write that fails it is refused and sent to dead letters.',
    );
    expect(enforceUnknown('remediation', 'running')).toBe(
      'A dry run of this target schema is still running, so how many existing entries would fail it is not known yet. Once the run succeeds, a write that fails it is refused and sent to dead letters.',
    );
    expect(enforceUnknown('policy', 'unfinished')).toMatch(
      /^The dry run of this draft did not finish/,
    );
  });

  it('reads an unspecified stored mode as Enforce, as the write guard does', () => {
    expect(storedShape(null)).toBeNull();
    const policy = { jsonSchema: SCHEMA, mode: StoreSchemaMode.UNSPECIFIED } as Parameters<
      typeof storedShape
    >[0];
    expect(storedShape(policy)).toEqual({ jsonSchema: SCHEMA, enforce: true });
  });
});

import type { MessageInitShape } from '@bufbuild/protobuf';
import type {
  StoreSchemaMigrationStepSchema,
  StoreSchemaVersionConfig,
  StoreSchemaVersionConfigSchema,
} from '@store/contract';
import { formatPatch, parsePatch } from './json-patch';

/** One migration step as the form holds it: text fields, checked on submit. */
export interface StepDraft {
  /** Stable React key; not sent. */
  key: number;
  from: string;
  to: string;
  /** A JSON Patch array; blank means the step only bumps the version. */
  patch: string;
}

export interface VersionConfigDraft {
  current: string;
  target: string;
  steps: StepDraft[];
}

export interface StepErrors {
  from?: string;
  to?: string;
  patch?: string;
}

export interface VersionConfigErrors {
  current?: string;
  target?: string;
  steps: StepErrors[];
}

export type VersionConfigInit = MessageInitShape<typeof StoreSchemaVersionConfigSchema>;

export type DraftCheck =
  { ok: true; config: VersionConfigInit } | { ok: false; errors: VersionConfigErrors };

let nextKey = 1;

/** A fresh, empty step. */
export function emptyStep(from = '', to = ''): StepDraft {
  return { key: nextKey++, from, to, patch: '' };
}

/**
 * The form's starting state: the stored config; without one, version 0 (current and target) and
 * no step, because that is the version the tree's entries are at (written before any version
 * config). Starting at 1 contradicted the page above it ("entries are written at version 0").
 */
export function draftFromConfig(config: StoreSchemaVersionConfig | null): VersionConfigDraft {
  if (!config) return { current: '0', target: '0', steps: [] };
  return {
    current: String(config.currentVersion),
    target: String(config.targetVersion),
    steps: config.migrations.map((step) => ({
      key: nextKey++,
      from: String(step.fromVersion),
      to: String(step.toVersion),
      patch: step.transform && step.transform.ops.length > 0 ? formatPatch(step.transform.ops) : '',
    })),
  };
}

const UINT32_MAX = 4_294_967_295;

/** A version number as typed, or the reason it is not one. */
export function parseVersion(text: string): number | string {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return 'A whole number of 0 or more';
  const value = Number(trimmed);
  if (value > UINT32_MAX) return `At most ${UINT32_MAX}`;
  return value;
}

/**
 * The same rules as the server's validateVersionConfig (target ≥ current, each step goes up, one
 * step per from-version, valid patches), checked before sending so errors sit by their field.
 * Gaps in the chain are allowed, as on the server: a migration reports them when it plans.
 */
export function checkVersionConfigDraft(draft: VersionConfigDraft): DraftCheck {
  const errors: VersionConfigErrors = { steps: draft.steps.map(() => ({})) };
  let failed = false;
  const current = parseVersion(draft.current);
  const target = parseVersion(draft.target);
  if (typeof current === 'string') {
    errors.current = current;
    failed = true;
  }
  if (typeof target === 'string') {
    errors.target = target;
    failed = true;
  } else if (typeof current === 'number' && target < current) {
    errors.target = `Cannot be below the current version ${current}`;
    failed = true;
  }

  const seenFrom = new Map<number, number>();
  const migrations: MessageInitShape<typeof StoreSchemaMigrationStepSchema>[] = [];
  draft.steps.forEach((step, index) => {
    const stepErrors = errors.steps[index] ?? {};
    const from = parseVersion(step.from);
    const to = parseVersion(step.to);
    if (typeof from === 'string') stepErrors.from = from;
    else if (seenFrom.has(from)) {
      stepErrors.from = `Step ${(seenFrom.get(from) ?? 0) + 1} already leaves version ${from}`;
    } else seenFrom.set(from, index);
    if (typeof to === 'string') stepErrors.to = to;
    else if (typeof from === 'number' && to <= from) {
      stepErrors.to = `Must be above the from version ${from}`;
    }
    let ops: ReturnType<typeof parsePatch> | undefined;
    if (step.patch.trim() !== '') {
      ops = parsePatch(step.patch);
      if (!ops.ok) stepErrors.patch = ops.message;
    }
    if (stepErrors.from || stepErrors.to || stepErrors.patch) {
      failed = true;
      return;
    }
    migrations.push({
      fromVersion: from as number,
      toVersion: to as number,
      ...(ops?.ok && { transform: { ops: ops.ops } }),
    });
  });

  if (failed) return { ok: false, errors };
  return {
    ok: true,
    config: {
      currentVersion: current as number,
      targetVersion: target as number,
      migrations,
    },
  };
}

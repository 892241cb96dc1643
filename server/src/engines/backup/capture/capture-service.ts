import { randomUUID } from 'node:crypto';
import {
  claimCapture,
  getBackupRow,
  latestBackupOfTree,
  listBackupRowsOfOperation,
  publishBackups,
  releaseCapture,
  type BackupRow,
} from '../../../storage/backup/backup-store.js';
import { withReadSnapshot } from '../../../storage/backup/backup-snapshot.js';
import { recordScopeRun } from '../../../storage/backup/backup-scope-store.js';
import type { Storage } from '../../../storage/database.js';
import { withoutOwnFlush } from '../../../storage/data/physical-tree-store.js';
import { resolveTree, withTransaction } from '../../../storage/data/tree-store.js';
import { failedPrecondition, invalidArgument, notFound } from '../../errors.js';
import type { ArtifactStore } from '../artifacts/index.js';
import type {
  BackupManifestDoc,
  CaptureRequest,
  CaptureResult,
  SetCaptureRequest,
  SetCaptureResult,
} from '../backup-types.js';
import { rowOfManifest, toCatalogEntry } from '../catalog/catalog-entry.js';
import {
  stepSize,
  validateBackupId,
  validateBackupName,
  validateLabels,
  validateScope,
} from '../validation.js';
import {
  captureScope,
  countScopeLines,
  type CapturedScope,
  type ScopePlan,
} from './capture-scope.js';

/** Who runs a capture, and how it reports. */
export interface CaptureContext {
  tenant: string;
  operationId: string;
  createdBy: string;
  signal: AbortSignal;
  /** Lines read of `total` (counted before reading; it grows per member of an unshared set). */
  progress(done: number, total: number, message: string): void;
}

interface MemberSpec {
  treeName: string;
  keyPrefix: string;
  base: BackupRow | null;
}

/** A fresh backup id: one safe path segment. */
export function newBackupId(): string {
  return `bk_${randomUUID()}`;
}

/** Full, incremental and set captures: artifacts durable → manifests → catalog rows, in order. */
export class CaptureService {
  constructor(
    private readonly storage: Storage,
    private readonly artifacts: ArtifactStore,
    private readonly clock: () => number,
    private readonly afterPage?: () => Promise<void>,
  ) {}

  /** Checks a capture request before it is queued (InvalidArgument, NotFound, FailedPrecondition). */
  async validate(tenant: string, request: CaptureRequest, incremental: boolean): Promise<void> {
    validateBackupName(request.name);
    const scope = validateScope(request.scope);
    stepSize(request.pageSize, 'page_size');
    validateLabels(request.labels);
    if (incremental) {
      const baseId = validateBackupId(request.baseBackupId, 'base_backup_id');
      await this.loadBase(tenant, baseId, scope.treeId, scope.keyPrefix);
    }
  }

  /** Checks a set request before it is queued. */
  validateSet(request: SetCaptureRequest): void {
    validateBackupName(request.name);
    stepSize(request.pageSize, 'page_size');
    validateLabels(request.labels);
    const trees = request.scopes.map((s, i) => validateScope(s, `scopes[${i}]`).treeId);
    if (trees.length === 0) throw invalidArgument('scopes', 'at least one scope is required');
    if (new Set(trees).size !== trees.length) {
      throw invalidArgument('scopes', 'each tree may appear once in a set');
    }
  }

  private async loadBase(tenant: string, baseId: string, tree: string, prefix: string) {
    const base = await getBackupRow(this.storage, tenant, baseId);
    if (!base) throw notFound(`base backup ${baseId} does not exist`);
    // A chain is one tree and one prefix; sequences of another tree mean nothing here.
    if (base.treeName !== tree) {
      throw failedPrecondition(`base backup ${baseId} is of tree ${base.treeName}, not ${tree}`);
    }
    if ((base.keyPrefix ?? '') !== prefix) {
      throw failedPrecondition(`base backup ${baseId} has another key prefix`);
    }
    return base;
  }

  /** A full capture, or an incremental one (from the named base, or the newest usable one). */
  async capture(
    ctx: CaptureContext,
    request: CaptureRequest,
    incremental: boolean,
  ): Promise<CaptureResult> {
    const scope = validateScope(request.scope);
    let base: BackupRow | null = null;
    if (incremental && request.baseBackupId) {
      base = await this.loadBase(ctx.tenant, request.baseBackupId, scope.treeId, scope.keyPrefix);
    } else if (incremental) {
      // A scheduled incremental: chain onto the newest backup of the tree as it is now; with none
      // (or only backups of a physical tree a restore replaced) a full one comes first.
      const tree = await resolveTree(this.storage, ctx.tenant, scope.treeId);
      base = tree
        ? ((await latestBackupOfTree(this.storage, ctx.tenant, scope.treeId, {
            physicalTreeId: tree.physicalTreeId,
            keyPrefix: scope.keyPrefix === '' ? null : scope.keyPrefix,
          })) ?? null)
        : null;
    }
    const [member] = await this.run(ctx, request, [{ ...this.spec(scope), base }], {
      consistent: true,
      setId: null,
    });
    if (!member) throw new Error('capture produced no backup');
    return member;
  }

  /** A set over two or more trees; with crossTreeConsistent all share one snapshot. */
  async captureSet(ctx: CaptureContext, request: SetCaptureRequest): Promise<SetCaptureResult> {
    this.validateSet(request);
    // Spec 000, Resources rule 1: only a set spanning two or more trees stamps a set id.
    const setId = request.scopes.length >= 2 ? `set_${randomUUID()}` : null;
    const createdAt = this.clock();
    const specs = request.scopes.map((s, i) => ({
      ...this.spec(validateScope(s, `scopes[${i}]`)),
      base: null,
    }));
    const members = await this.run(ctx, request, specs, {
      consistent: request.crossTreeConsistent,
      setId,
    });
    return {
      setManifest: {
        setId,
        name: request.name,
        backupIds: members.map((m) => m.backupId),
        crossTreeConsistent: request.crossTreeConsistent,
        createdAt,
      },
      members,
    };
  }

  /**
   * The result of a capture operation interrupted after it published its backup (its last
   * durable step) but before its success was recorded, rebuilt from the catalog; undefined when
   * it published nothing (it then fails, and scrub prunes its files).
   */
  async publishedCapture(tenant: string, operationId: string): Promise<CaptureResult | undefined> {
    return (await this.publishedMembers(tenant, operationId))?.[0];
  }

  /** As publishedCapture, for a set: members in the order of the request's scopes. */
  async publishedSet(
    tenant: string,
    operationId: string,
    request: SetCaptureRequest,
  ): Promise<SetCaptureResult | undefined> {
    const members = await this.publishedMembers(tenant, operationId);
    if (!members) return undefined;
    const position = (m: CaptureResult) =>
      request.scopes.findIndex(
        (scope) =>
          scope.treeId === m.entry.manifest.treeName &&
          (scope.keyPrefix ?? '') === (m.entry.manifest.keyPrefix ?? ''),
      );
    members.sort((a, b) => position(a) - position(b));
    const first = members[0]!.entry.manifest;
    return {
      setManifest: {
        setId: first.setId,
        name: request.name,
        backupIds: members.map((m) => m.backupId),
        crossTreeConsistent: request.crossTreeConsistent,
        // The set's own clock reading was not stored; its members' is milliseconds after it.
        createdAt: first.createdAt,
      },
      members,
    };
  }

  private async publishedMembers(
    tenant: string,
    operationId: string,
  ): Promise<CaptureResult[] | undefined> {
    const rows = await listBackupRowsOfOperation(this.storage, tenant, operationId);
    if (rows.length === 0) return undefined;
    for (const row of rows) {
      // The run died before recording its scope status; the next one would, but do it now.
      await recordScopeRun(this.storage, {
        tenant,
        treeName: row.treeName,
        keyPrefix: row.keyPrefix ?? '',
        kind: row.baseBackupId ? 'incremental' : 'full',
        outcome: 'SUCCEEDED',
        now: row.completedAt,
      });
    }
    return rows.map((row) => ({ backupId: row.id, entry: toCatalogEntry(row) }));
  }

  private spec(scope: { treeId: string; keyPrefix: string }) {
    return { treeName: scope.treeId, keyPrefix: scope.keyPrefix };
  }

  private async run(
    ctx: CaptureContext,
    request: Pick<CaptureRequest, 'name' | 'pageSize' | 'labels' | 'maxEntriesPerSecond'>,
    specs: MemberSpec[],
    options: { consistent: boolean; setId: string | null },
  ): Promise<CaptureResult[]> {
    const createdAt = this.clock();
    const pageSize = stepSize(request.pageSize, 'page_size');
    const plans: ScopePlan[] = specs.map((spec) => ({
      tenant: ctx.tenant,
      backupId: newBackupId(),
      treeName: spec.treeName,
      keyPrefix: spec.keyPrefix,
      fromSequence: spec.base ? spec.base.toSequence : null,
      pageSize,
      maxEntriesPerSecond: request.maxEntriesPerSecond ?? 0,
    }));
    const kindOf = (i: number) => (specs[i]?.base ? 'incremental' : 'full');
    // One commit for the scope status and the claims (a fixed cost of every incremental), which
    // does not wait for its flush: a crash that loses it kills this capture too. Claims before
    // any file: scrub must never take a running capture's files for leftovers.
    await withoutOwnFlush(this.storage, async (tx) => {
      for (const [i, spec] of specs.entries()) {
        await recordScopeRun(tx, {
          tenant: ctx.tenant,
          treeName: spec.treeName,
          keyPrefix: spec.keyPrefix,
          kind: kindOf(i),
          outcome: 'RUNNING',
          now: createdAt,
        });
      }
      for (const plan of plans) {
        await claimCapture(tx, { ...plan, operationId: ctx.operationId, now: createdAt });
      }
    });
    try {
      const captured = await this.captureAll(ctx, plans, specs, options.consistent);
      const completedAt = this.clock();
      const manifests = captured.map((c, i) =>
        this.manifestOf(ctx, request, c, specs[i]?.base ?? null, {
          setId: options.setId,
          createdAt,
          completedAt,
        }),
      );
      for (const manifest of manifests) {
        await this.artifacts.writeManifest(ctx.tenant, manifest.backupId, manifest, {
          artifacts: manifest.artifacts,
        });
      }
      // Only now, with artifacts and manifests durable, do the backups become visible.
      // The catalog rows and the scope status in one commit (a fixed cost of every
      // incremental): both or neither, so a failure here leaves no published backup whose
      // files the cleanup below would delete.
      const published = await withTransaction(this.storage, async (tx) => {
        const outcome = await publishBackups(
          tx,
          manifests.map((manifest) => ({
            ...rowOfManifest(manifest),
            operationId: ctx.operationId,
          })),
        );
        if (outcome !== 'published') return outcome;
        for (const [i, spec] of specs.entries()) {
          await recordScopeRun(tx, {
            tenant: ctx.tenant,
            treeName: spec.treeName,
            keyPrefix: spec.keyPrefix,
            kind: kindOf(i),
            outcome: 'SUCCEEDED',
            now: completedAt,
          });
        }
        return outcome;
      });
      if (published === 'base_missing') {
        throw failedPrecondition('the base backup was deleted while the capture ran');
      }
      return manifests.map((manifest) => ({
        backupId: manifest.backupId,
        entry: { manifest, lastHealthStatus: null, lastVerifiedAt: null },
      }));
    } catch (error) {
      for (const plan of plans) {
        await this.artifacts.discardBackup(ctx.tenant, plan.backupId);
        await releaseCapture(this.storage, ctx.tenant, plan.backupId).catch(() => undefined);
      }
      for (const [i, spec] of specs.entries()) {
        await recordScopeRun(this.storage, {
          tenant: ctx.tenant,
          treeName: spec.treeName,
          keyPrefix: spec.keyPrefix,
          kind: kindOf(i),
          outcome: 'FAILED',
          now: this.clock(),
        }).catch(() => undefined);
      }
      throw error;
    }
  }

  private async captureAll(
    ctx: CaptureContext,
    plans: ScopePlan[],
    specs: MemberSpec[],
    consistent: boolean,
  ): Promise<CapturedScope[]> {
    let done = 0;
    let total = 0;
    const one = async (snapshot: Parameters<typeof captureScope>[0], i: number) => {
      const plan = plans[i] as ScopePlan;
      const base = specs[i]?.base ?? null;
      const before = done;
      const captured = await captureScope(
        snapshot,
        this.artifacts,
        plan,
        {
          signal: ctx.signal,
          onProgress: (lines, bytes) => {
            done = before + lines;
            ctx.progress(done, total, `${bytes} bytes read`);
          },
          // Its lines all read, an incremental reads the scope once more for its digest: the
          // count stays at its total, the message says what the capture waits for.
          onDigestProgress: (entries) => {
            ctx.progress(done, total, `content digest: ${entries} entries of the scope read`);
          },
          afterPage: this.afterPage,
        },
        (physicalTreeId) => {
          // Sequences restart meaning on a restored (swapped) physical tree: an incremental
          // across a restore would silently miss the restore's changes.
          if (base && base.physicalTreeId !== physicalTreeId) {
            throw failedPrecondition(
              `tree ${plan.treeName} was restored after base backup ${base.id}; take a full backup`,
            );
          }
        },
      );
      return captured;
    };
    if (consistent) {
      // One snapshot for every member: a set shares one point in time across its trees.
      return withReadSnapshot(this.storage, async (snapshot) => {
        // Every member counted first: the set's total is known before its first line.
        for (const plan of plans) total += await countScopeLines(snapshot, plan);
        ctx.progress(0, total, '');
        const out: CapturedScope[] = [];
        for (let i = 0; i < plans.length; i++) out.push(await one(snapshot, i));
        return out;
      });
    }
    const out: CapturedScope[] = [];
    for (let i = 0; i < plans.length; i++) {
      out.push(
        await withReadSnapshot(this.storage, async (snapshot) => {
          total += await countScopeLines(snapshot, plans[i] as ScopePlan);
          ctx.progress(done, total, '');
          return one(snapshot, i);
        }),
      );
    }
    return out;
  }

  private manifestOf(
    ctx: CaptureContext,
    request: Pick<CaptureRequest, 'name' | 'labels'>,
    c: CapturedScope,
    base: BackupRow | null,
    times: { setId: string | null; createdAt: number; completedAt: number },
  ): BackupManifestDoc {
    return {
      backupId: c.plan.backupId,
      tenant: ctx.tenant,
      name: request.name,
      kind: base ? 'INCREMENTAL' : 'FULL',
      treeName: c.plan.treeName,
      keyPrefix: c.plan.keyPrefix === '' ? null : c.plan.keyPrefix,
      baseBackupId: base ? base.id : null,
      setId: times.setId,
      physicalTreeId: c.physicalTreeId,
      createdAt: times.createdAt,
      completedAt: times.completedAt,
      fromSequence: base ? base.toSequence : 0,
      toSequence: c.toSequence,
      entryCount: c.entryCount,
      tombstoneCount: c.tombstoneCount,
      byteSize: c.artifacts.reduce((sum, a) => sum + a.byteSize, 0),
      artifacts: c.artifacts.map((a) => ({
        artifactId: a.artifactId,
        byteSize: a.byteSize,
        sha256: a.sha256,
        entryCount: a.entryCount,
      })),
      schemaVersion: c.schemaVersion,
      createdBy: ctx.createdBy,
      labels: validateLabels(request.labels),
      contentDigest: c.contentDigest,
    };
  }
}

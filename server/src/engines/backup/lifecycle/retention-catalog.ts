/** One backup of the scope as retention sees it. */
export interface RetentionCandidate {
  id: string;
  name: string;
  createdAt: number;
  baseBackupId: string | null;
  setId: string | null;
  byteSize: number;
  /** Set while the backup is protected (pinned): who protected it and why. */
  protection?: { by: string; reason: string } | undefined;
  /** Set when its last check found it damaged: rules never count it. */
  damage?: CatalogDamage | undefined;
  /** Set when its latest restore drill proved it restorable. */
  proven?: boolean | undefined;
}

/** A backup a check found damaged: never counted by a rule, kept until deleted by hand. */
export interface CatalogDamage {
  status: DamageStatus;
  /** When a check first found it damaged. */
  since: number;
}

export type DamageStatus = 'CORRUPT' | 'MISSING' | 'DEGRADED';

/** Who protected a backup and why, as its keep reason tells. */
export interface CatalogProtection {
  by: string;
  reason: string;
}

/** A scope's backups in columns (entry i of each is backup i), in any order. */
export interface CatalogColumns {
  ids: readonly string[];
  createdAt: ArrayLike<number>;
  /** null or '' for a full. */
  baseIds: readonly (string | null)[];
  /** null or '' outside a set. */
  setIds: readonly (string | null)[];
  byteSizes: ArrayLike<number>;
  /** By backup id; ids not in the catalog are ignored. */
  protections: ReadonlyMap<string, CatalogProtection>;
  /** Damaged backups by id (none when absent); ids not in the catalog are ignored. */
  damaged?: ReadonlyMap<string, CatalogDamage> | undefined;
  /** Ids whose latest restore drill proved them restorable; ids not in the catalog are ignored. */
  proven?: ReadonlySet<string> | undefined;
}

/**
 * A scope's backups as retention plans over them: in columns, newest first (equal times by id,
 * descending, so the order never depends on the input), bases resolved to positions. Columns
 * instead of an object per backup: a scope may hold 100 000 backups, and a preview reads them all.
 */
export interface RetentionCatalog {
  ids: string[];
  createdAt: Float64Array;
  /** Position of each backup's base; -1 for a full, or a base outside this catalog. */
  base: Int32Array;
  baseIds: (string | null)[];
  setIds: (string | null)[];
  byteSizes: Float64Array;
  /** The protected backups, by position. */
  protections: Map<number, CatalogProtection>;
  /** The damaged backups, by position. */
  damaged: Map<number, CatalogDamage>;
  /**
   * Position of the newest backup a drill proved restorable and no check found damaged since (a
   * damaged one no longer restores as proven; it is kept by its damage anyway); -1 for none.
   */
  proven: number;
  /** Where each backup was in the input columns. */
  source: Int32Array;
}

/** Sorts columns newest first and resolves bases; the input is not changed. */
export function buildCatalog(columns: CatalogColumns): RetentionCatalog {
  const { ids, createdAt } = columns;
  const n = ids.length;
  // Tables give their rows oldest first as a rule: from the reverse, the input is nearly sorted,
  // which the sort (TimSort) walks in linear time. Any order still sorts correctly.
  const order: number[] = new Array<number>(n);
  for (let i = 0; i < n; i++) order[i] = n - 1 - i;
  order.sort((a, b) => {
    const byTime = createdAt[b]! - createdAt[a]!;
    if (byTime !== 0) return byTime;
    const idA = ids[a]!;
    const idB = ids[b]!;
    return idA < idB ? 1 : idA > idB ? -1 : 0;
  });
  const catalog: RetentionCatalog = {
    ids: new Array<string>(n),
    createdAt: new Float64Array(n),
    base: new Int32Array(n),
    baseIds: new Array<string | null>(n),
    setIds: new Array<string | null>(n),
    byteSizes: new Float64Array(n),
    protections: new Map(),
    damaged: new Map(),
    proven: -1,
    source: Int32Array.from(order),
  };
  for (let k = 0; k < n; k++) {
    const i = order[k]!;
    catalog.ids[k] = ids[i]!;
    catalog.createdAt[k] = createdAt[i]!;
    catalog.baseIds[k] = columns.baseIds[i] || null;
    catalog.setIds[k] = columns.setIds[i] || null;
    catalog.byteSizes[k] = columns.byteSizes[i]!;
  }
  // An incremental's base is nearly always the backup just before it in its scope (one chain
  // grows at a time), the next position newest first: that is checked before the map, which
  // costs more than everything else here for 100 000 ids and is built only on a miss.
  let position: Map<string, number> | undefined;
  const positionOf = (id: string): number | undefined => {
    if (!position) {
      position = new Map();
      for (let k = 0; k < n; k++) position.set(catalog.ids[k]!, k);
    }
    return position.get(id);
  };
  for (let k = 0; k < n; k++) {
    const baseId = catalog.baseIds[k];
    if (!baseId) catalog.base[k] = -1;
    else if (catalog.ids[k + 1] === baseId) catalog.base[k] = k + 1;
    else catalog.base[k] = positionOf(baseId) ?? -1;
  }
  if (columns.protections.size > 0) {
    for (let k = 0; k < n; k++) {
      const protection = columns.protections.get(catalog.ids[k]!);
      if (protection) catalog.protections.set(k, protection);
    }
  }
  const damaged = columns.damaged;
  if (damaged && damaged.size > 0) {
    for (let k = 0; k < n; k++) {
      const damage = damaged.get(catalog.ids[k]!);
      if (damage) catalog.damaged.set(k, damage);
    }
  }
  const proven = columns.proven;
  if (proven && proven.size > 0) {
    for (let k = 0; k < n; k++) {
      if (proven.has(catalog.ids[k]!) && !catalog.damaged.has(k)) {
        catalog.proven = k;
        break;
      }
    }
  }
  return catalog;
}

/** The catalog of candidate objects (tests and small callers). */
export function catalogOfCandidates(candidates: readonly RetentionCandidate[]): RetentionCatalog {
  const protections = new Map<string, CatalogProtection>();
  const damaged = new Map<string, CatalogDamage>();
  const proven = new Set<string>();
  for (const c of candidates) {
    if (c.protection) protections.set(c.id, c.protection);
    if (c.damage) damaged.set(c.id, c.damage);
    if (c.proven) proven.add(c.id);
  }
  return buildCatalog({
    ids: candidates.map((c) => c.id),
    createdAt: candidates.map((c) => c.createdAt),
    baseIds: candidates.map((c) => c.baseBackupId),
    setIds: candidates.map((c) => c.setId),
    byteSizes: candidates.map((c) => c.byteSize),
    protections,
    damaged,
    proven,
  });
}

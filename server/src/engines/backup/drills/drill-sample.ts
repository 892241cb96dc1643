import type { ArtifactRecord } from '../artifacts/index.js';

/**
 * A deterministic sample of a chain's keys for a drill's spot-check: the `size` keys of the
 * smallest seeded hash (bottom-k). Whether a key is in depends on the key alone, not on when it
 * is read, so a key an incremental overwrites keeps its place and its newest value: the sample
 * ends holding what the chain says each sampled key is (null: deleted). The seed is recorded
 * with the drill, so the same seed samples the same keys again.
 */
export class DrillSample {
  private readonly picked = new Map<string, { rank: number; valueJson: string | null }>();
  private threshold = Number.POSITIVE_INFINITY;

  constructor(
    private readonly seed: number,
    readonly size: number,
  ) {}

  /** Sees one record as the artifact holds it, in chain order. */
  see(record: ArtifactRecord): void {
    const held = this.picked.get(record.key);
    if (held) {
      held.valueJson = record.valueJson;
      return;
    }
    if (this.size === 0) return;
    const rank = seededHash(this.seed, record.key);
    if (this.picked.size >= this.size && rank >= this.threshold) return;
    this.picked.set(record.key, { rank, valueJson: record.valueJson });
    if (this.picked.size > this.size) {
      let worst = '';
      let worstRank = -1;
      for (const [key, entry] of this.picked) {
        if (entry.rank > worstRank) [worst, worstRank] = [key, entry.rank];
      }
      this.picked.delete(worst);
    }
    if (this.picked.size >= this.size) {
      this.threshold = Math.max(...[...this.picked.values()].map((e) => e.rank));
    }
  }

  /** The sampled keys in byte order of key, with the value the chain gives each. */
  entries(): Array<{ key: string; valueJson: string | null }> {
    return [...this.picked]
      .map(([key, entry]) => ({ key, valueJson: entry.valueJson }))
      .sort((a, b) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)));
  }
}

/** FNV-1a (32-bit) of the key's UTF-16 code units, started from the seed: cheap per record. */
function seededHash(seed: number, key: string): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

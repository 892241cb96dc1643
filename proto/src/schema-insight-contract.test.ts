import { describe, expect, it } from 'vitest';
import {
  SchemaInsightApiOperation,
  SchemaInsightService,
  file_store_insight_v1_schema_insight,
} from '../gen/store/insight/v1/schema_insight_pb.js';
import { aliasOf } from './aliases.js';

// Issue 16: the schema-insight records are the project's own, aliased "oin.sc…" (the backup
// insight records of the same package use their own "oin." names).
describe('store.insight.v1 schema insight contract', () => {
  it('every record of schema_insight.proto has a unique oin.sc alias', () => {
    const seen = new Set<string>();
    for (const message of file_store_insight_v1_schema_insight.messages) {
      const alias = aliasOf(message);
      expect(alias, `${message.typeName} has no alias`).toMatch(/^oin\.sc[a-z]+$/);
      expect(seen.has(alias!), `alias ${alias} is used twice`).toBe(false);
      seen.add(alias!);
    }
    expect(seen.size).toBe(file_store_insight_v1_schema_insight.messages.length);
  });

  it('has one operation value per RPC, UNSPECIFIED first', () => {
    const names = Object.keys(SchemaInsightApiOperation).filter((k) => isNaN(Number(k)));
    expect(names[0]).toBe('UNSPECIFIED');
    expect(names).toHaveLength(SchemaInsightService.methods.length + 1);
  });
});

import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import type { ConnectRouter } from '@connectrpc/connect';
import { TreeDataService } from '@store/contract';
import type { TreeDataEngine } from '../../engines/data/tree-data-engine.js';
import { callScopeOf } from '../call-scope.js';

interface EntryView {
  key: string;
  valueJson: string;
  sequence: number;
  schemaVersion: number;
  updatedAt: number;
}

function toEntry(entry: EntryView) {
  return {
    key: entry.key,
    valueJson: entry.valueJson,
    sequence: BigInt(entry.sequence),
    schemaVersion: entry.schemaVersion,
    updatedAt: timestampFromMs(entry.updatedAt),
  };
}

/** TreeDataService: maps the wire to the tree-data engine, always in the caller's tenant. */
export function registerTreeDataService(router: ConnectRouter, engine: TreeDataEngine): void {
  router.service(TreeDataService, {
    async listTrees(request, context) {
      const { tenant } = callScopeOf(context);
      const page = await engine.listTrees(tenant, {
        pageSize: request.pageSize,
        pageToken: request.pageToken,
      });
      return {
        trees: page.trees.map((tree) => ({
          treeId: tree.treeId,
          entryCount: BigInt(tree.entryCount),
          hasPolicy: tree.hasPolicy,
          deadLetterCount: BigInt(tree.deadLetterCount),
          updatedAt: timestampFromMs(tree.updatedAt),
        })),
        nextPageToken: page.nextPageToken,
      };
    },
    async putEntry(request, context) {
      const { tenant } = callScopeOf(context);
      const result = await engine.putEntry(tenant, request.treeId, request.key, request.valueJson);
      return {
        sequence: BigInt(result.sequence),
        deadLettered: result.deadLettered,
        deadLetterReason: result.deadLetterReason,
      };
    },
    async putEntries(request, context) {
      const { tenant } = callScopeOf(context);
      const results = await engine.putEntries(tenant, request.treeId, request.entries);
      return {
        results: results.map((result) => ({
          sequence: BigInt(result.sequence),
          deadLettered: result.deadLettered,
          deadLetterReason: result.deadLetterReason,
        })),
      };
    },
    async getEntry(request, context) {
      const { tenant } = callScopeOf(context);
      const entry = await engine.getEntry(tenant, request.treeId, request.key);
      return entry ? { found: true, entry: toEntry(entry) } : { found: false };
    },
    async deleteEntry(request, context) {
      const { tenant } = callScopeOf(context);
      return { deleted: await engine.deleteEntry(tenant, request.treeId, request.key) };
    },
    async listEntries(request, context) {
      const { tenant } = callScopeOf(context);
      const page = await engine.listEntries(tenant, request.treeId, {
        keyPrefix: request.keyPrefix,
        pageSize: request.pageSize,
        pageToken: request.pageToken,
      });
      return { entries: page.entries.map(toEntry), nextPageToken: page.nextPageToken };
    },
  });
}

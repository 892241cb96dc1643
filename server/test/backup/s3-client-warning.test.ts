// The AWS SDK's "Node 22 will be required" warning: silenced on Node 20 (which package.json's
// engines support), unless the operator set the SDK's switch themselves. Each case is a fresh
// Node process, because the SDK warns at most once per process.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const clientModule = fileURLToPath(
  new URL('../../src/engines/backup/artifacts/object-store/s3-client.ts', import.meta.url),
);
const SWITCH = 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED';

/** stderr of a process that makes one S3 client the product's way. */
function stderrOfClient(extraEnv: Record<string, string>): string {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extraEnv };
  if (!(SWITCH in extraEnv)) delete env[SWITCH];
  const script =
    `const { createS3Client } = await import(${JSON.stringify(clientModule)});` +
    `createS3Client({ endpoint: 'http://127.0.0.1:9', region: 'us-east-1', forcePathStyle: true });`;
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script],
    {
      env,
      encoding: 'utf8',
    },
  );
  expect(run.status, run.stderr).toBe(0);
  return run.stderr;
}

describe.runIf(process.versions.node.startsWith('20.'))('the SDK warning on Node 20', () => {
  it('is not printed when a client is made', () => {
    expect(stderrOfClient({})).not.toContain('NodeVersionSupportWarning');
  });

  it("is printed when the operator's own setting asks for it", () => {
    expect(stderrOfClient({ [SWITCH]: 'false' })).toContain('NodeVersionSupportWarning');
  });
});

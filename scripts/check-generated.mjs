// Fails when proto/gen is not what `buf generate` makes from proto/ now (generated code is
// committed, so a stale copy must stop the test command).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const committed = join(root, 'proto', 'gen');
const scratch = mkdtempSync(join(tmpdir(), 'store-gen-'));

function listFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listFiles(path));
    else out.push(path);
  }
  return out;
}

try {
  execFileSync('buf', ['generate', 'proto', '--template', 'proto/buf.gen.yaml', '-o', scratch], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH}` },
  });
  const fresh = join(scratch, 'gen');
  const freshFiles = listFiles(fresh)
    .map((p) => relative(fresh, p))
    .sort();
  const committedFiles = listFiles(committed)
    .map((p) => relative(committed, p))
    .sort();
  const problems = [];
  for (const file of new Set([...freshFiles, ...committedFiles])) {
    if (!freshFiles.includes(file)) problems.push(`${file}: no longer generated`);
    else if (!committedFiles.includes(file)) problems.push(`${file}: missing from proto/gen`);
    else if (!readFileSync(join(fresh, file)).equals(readFileSync(join(committed, file)))) {
      problems.push(`${file}: differs from a fresh generation`);
    }
  }
  if (problems.length > 0) {
    console.error(
      `proto/gen is stale; run \`npm run generate\` and commit:\n  ${problems.join('\n  ')}`,
    );
    process.exit(1);
  }
  console.log(`proto/gen is fresh (${freshFiles.length} files)`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

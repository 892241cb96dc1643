// `node --import tsx proxy/check/cli.ts proxy/envoy.yaml` — prints OK, or one problem per line
// and exits 1. The first run builds the descriptor image (a few seconds); later runs reuse it.
import { readFileSync } from 'node:fs';
import { checkEnvoyYaml, formatProblem } from './check.js';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node --import tsx proxy/check/cli.ts <envoy.yaml>...');
  process.exit(2);
}
let failed = false;
for (const file of files) {
  const problems = checkEnvoyYaml(readFileSync(file, 'utf8'));
  if (problems.length === 0) {
    console.log(`${file}: OK`);
    continue;
  }
  failed = true;
  console.log(`${file}: ${problems.length} problem(s)`);
  for (const p of problems) console.log(`  ${formatProblem(p)}`);
}
process.exit(failed ? 1 : 0);

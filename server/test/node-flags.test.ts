import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../node-flags.mjs';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

describe('the flags every launcher of the built server passes (server/node-flags.mjs)', () => {
  it('this Node starts with them (V8 options are refused in NODE_OPTIONS, not here)', () => {
    const probe = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, '-e', "console.log('up')"], {
      encoding: 'utf8',
    });
    expect(probe.stderr).toBe('');
    expect(probe.stdout.trim()).toBe('up');
  });

  it('the Docker image runs the server with exactly these flags', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(read('server/Dockerfile'));
    expect(cmd).not.toBeNull();
    expect(JSON.parse(cmd![1]!)).toEqual(['node', ...SERVER_NODE_FLAGS, 'server/dist/main.js']);
  });

  it.each(['scripts/start.mjs', 'scripts/edge.ts', 'bench/lib/child-bench-server.ts'])(
    '%s passes them',
    (path) => {
      expect(read(path)).toContain('...SERVER_NODE_FLAGS');
    },
  );
});

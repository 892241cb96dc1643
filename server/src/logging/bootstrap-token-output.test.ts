import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BOOTSTRAP_TOKEN_FILE, bootstrapTokenLines } from './bootstrap-token-output.js';

const TOKEN = 'st_generated_0123456789abcdef';

describe('where the generated first admin token is shown', () => {
  let dataDir = '';
  beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), 'store-token-out-'))));
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));
  const options = (stdoutIsTerminal: boolean) => ({
    token: TOKEN,
    tenant: 'default',
    stdoutIsTerminal,
    dataDir,
  });

  it('on a terminal, it is printed and no file is written', () => {
    const { lines, file } = bootstrapTokenLines(options(true));
    expect(file).toBeUndefined();
    expect(lines).toContain(`  ${TOKEN}`);
    expect(() => statSync(join(dataDir, BOOTSTRAP_TOKEN_FILE))).toThrow();
  });

  it('when stdout is a pipe or a file, it goes to <data dir>/bootstrap-token with mode 0600, never into the lines', () => {
    const file = join(dataDir, BOOTSTRAP_TOKEN_FILE);
    // A file left from an earlier start, readable by all: replaced, not reused.
    writeFileSync(file, 'old', { mode: 0o644 });
    const { lines, file: written } = bootstrapTokenLines(options(false));
    expect(written).toBe(file);
    expect(lines.join('\n')).not.toContain(TOKEN);
    expect(lines).toContain(`  ${file}`);
    expect(readFileSync(file, 'utf8')).toBe(`${TOKEN}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('when the file cannot be written, it says how to issue a token and shows none', () => {
    const { lines, file } = bootstrapTokenLines({
      ...options(false),
      dataDir: '/nonexistent/store',
    });
    expect(file).toBeUndefined();
    expect(lines.join('\n')).not.toContain(TOKEN);
    expect(lines.join('\n')).toMatch(/could not be written.*\n.*npm run token -- create/);
  });
});

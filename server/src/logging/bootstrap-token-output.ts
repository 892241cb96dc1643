import { openSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';

/** The file the generated first admin token goes to when stdout is not a terminal. */
export const BOOTSTRAP_TOKEN_FILE = 'bootstrap-token';

/**
 * Where the generated first admin token is shown: on the terminal when stdout is one (`npm start`
 * in a shell); otherwise in `<data dir>/bootstrap-token`, readable by this user only (mode 0600),
 * and the lines say where. When stdout is a pipe or a file it carries the JSON log stream, and
 * what a container or CI job prints is kept by its log collector, so a credential never goes there
 * (OWASP Logging Cheat Sheet, "Data to exclude"). Returns the lines to print, and the file when
 * one was written (for a log line collectors can find).
 */
export function bootstrapTokenLines(options: {
  token: string;
  tenant: string;
  stdoutIsTerminal: boolean;
  dataDir: string;
}): { lines: string[]; file?: string } {
  const signIn = `Sign in with the "API token" scheme, tenant "${options.tenant}", using`;
  if (options.stdoutIsTerminal) {
    return { lines: [`${signIn}:`, `  ${options.token}`, 'This token is shown once.'] };
  }
  const path = join(options.dataDir, BOOTSTRAP_TOKEN_FILE);
  try {
    writeOwnerOnly(path, `${options.token}\n`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      lines: [
        `${signIn} a new token: stdout is not a terminal and ${path} could not be written (${reason}).`,
        'Issue one with: npm run token -- create --tenant <t> --role admin',
      ],
    };
  }
  return {
    lines: [
      `${signIn} the token in the file:`,
      `  ${path}`,
      'It is not printed because stdout is not a terminal (logs keep what is printed); the file is' +
        ' readable by this user only. Delete it once the token is kept elsewhere.',
    ],
    file: path,
  };
}

/** Writes a new file created with mode 0600, so the token is never readable by others, not even briefly. */
function writeOwnerOnly(path: string, text: string): void {
  // A file left from an earlier start may have any mode: made afresh rather than rewritten.
  rmSync(path, { force: true });
  const fd = openSync(path, 'wx', 0o600);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

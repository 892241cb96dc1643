import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('../../..', import.meta.url).pathname;

/**
 * Python clients the tests talk to the server with, as operators' tools would (grpcio's stock
 * reflection client). Pinned, installed with pip into the git-ignored .cache/grpcio-venv on first
 * use: PyPI is the only network it needs.
 */
const REQUIREMENTS = ['grpcio==1.85.1', 'grpcio-reflection==1.85.1'];
const VENV = join(ROOT, '.cache', 'grpcio-venv');

/** The venv's python, with the pinned grpcio clients installed. */
export function ensureGrpcioPython(): string {
  const python = join(VENV, 'bin', 'python');
  const check = () =>
    existsSync(python) &&
    spawnSync(python, ['-c', 'import grpc, grpc_reflection'], { encoding: 'utf8' }).status === 0;
  if (check()) return python;
  mkdirSync(join(ROOT, '.cache'), { recursive: true });
  const steps: [string, string[]][] = [
    ['python3', ['-m', 'venv', VENV]],
    [join(VENV, 'bin', 'pip'), ['install', '--quiet', ...REQUIREMENTS]],
  ];
  for (const [command, args] of steps) {
    const result = spawnSync(command, args, { encoding: 'utf8' });
    if (result.status !== 0)
      throw new Error(
        `${command} ${args.join(' ')} failed: ${result.error?.message ?? result.stderr.trim()}`,
      );
  }
  if (!check()) throw new Error(`${VENV} has no usable grpcio after pip install`);
  return python;
}

/**
 * A Python with the pinned aiosmtpd (a real SMTP server for the notification tests), installed
 * like grpcio into the git-ignored .cache/aiosmtpd-venv on first use.
 */
export function ensureSmtpPython(): string {
  const venv = join(ROOT, '.cache', 'aiosmtpd-venv');
  const python = join(venv, 'bin', 'python');
  const check = () =>
    existsSync(python) &&
    spawnSync(python, ['-c', 'import aiosmtpd'], { encoding: 'utf8' }).status === 0;
  if (check()) return python;
  mkdirSync(join(ROOT, '.cache'), { recursive: true });
  const steps: [string, string[]][] = [
    ['python3', ['-m', 'venv', venv]],
    [join(venv, 'bin', 'pip'), ['install', '--quiet', 'aiosmtpd==1.4.6']],
  ];
  for (const [command, args] of steps) {
    const result = spawnSync(command, args, { encoding: 'utf8' });
    if (result.status !== 0)
      throw new Error(
        `${command} ${args.join(' ')} failed: ${result.error?.message ?? result.stderr.trim()}`,
      );
  }
  if (!check()) throw new Error(`${venv} has no usable aiosmtpd after pip install`);
  return python;
}

/** The path of one of server/test/tools/*.py. */
export function pythonTool(script: string): string {
  return join(ROOT, 'server', 'test', 'tools', script);
}

/**
 * Runs one of server/test/tools/*.py with the grpcio venv; its stdout parsed as JSON. Not
 * spawnSync: the server under test may live in this very process and must keep answering.
 */
export async function runGrpcioTool(script: string, args: string[]): Promise<unknown> {
  const python = ensureGrpcioPython();
  const path = join(ROOT, 'server', 'test', 'tools', script);
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(python, [path, ...args], { timeout: 30_000 }, (error, out, err) => {
      if (error) reject(new Error(`${script} failed: ${err || error.message}`));
      else resolve(out);
    });
  });
  return JSON.parse(stdout) as unknown;
}

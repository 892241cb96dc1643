import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { ensureSmtpPython, pythonTool } from '../support/python-tools.js';

export interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
}

/** aiosmtpd in a child process: every message it accepted, as it printed them. */
export class SmtpSink {
  readonly messages: ReceivedMail[] = [];
  port = 0;
  private child: ChildProcess | undefined;

  async start(): Promise<void> {
    const child = spawn(ensureSmtpPython(), [pythonTool('smtp_sink.py')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    let errors = '';
    child.stderr?.on('data', (c: Buffer) => (errors += c.toString()));
    const lines = createInterface({ input: child.stdout! });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`aiosmtpd did not start: ${errors}`)),
        20_000,
      );
      child.once('exit', (code) => reject(new Error(`aiosmtpd exited (${code}): ${errors}`)));
      lines.on('line', (line) => {
        const parsed = JSON.parse(line) as { port?: number } & ReceivedMail;
        if (parsed.port !== undefined) {
          this.port = parsed.port;
          clearTimeout(timer);
          resolve();
        } else {
          this.messages.push(parsed);
        }
      });
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

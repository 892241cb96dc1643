import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  webhookId: string;
  body: { type: string; data: Record<string, unknown> };
  /** The library's own verify accepted the signature with the secret the receiver was given. */
  verified: boolean;
  verifyError: string;
}

/**
 * A real HTTP receiver, as a customer would run one: it verifies each request with the Standard
 * Webhooks library and answers `status()` (200 unless told otherwise).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  secret = '';
  status: () => number = () => 200;
  private server: Server | undefined;
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  /** Listens on `port` (0: any free one). */
  async listen(port = 0): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString();
        const headers = Object.fromEntries(
          Object.entries(req.headers).map(([k, v]) => [k, String(v)]),
        );
        let verified = false;
        let verifyError = '';
        try {
          new Webhook(this.secret).verify(raw, headers);
          verified = true;
        } catch (error) {
          verifyError = (error as Error).message;
        }
        this.received.push({
          webhookId: headers['webhook-id'] ?? '',
          body: JSON.parse(raw) as Received['body'],
          verified,
          verifyError,
        });
        res.writeHead(this.status()).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** A port free right now (taken and released), for a receiver that starts listening later. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

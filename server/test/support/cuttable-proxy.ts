import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy in front of a test server whose connection can be cut and restored, on the same
 * port: "S3 stopped" for the product while the server behind it keeps its state (rclone keeps
 * incomplete multipart uploads in memory, which a real restart would lose).
 */
export interface CuttableProxy {
  /** `http://127.0.0.1:<port>`, to use instead of the server's own endpoint. */
  endpoint: string;
  /** Resets every open connection and refuses new ones until `restore`. */
  cut(): Promise<void>;
  /** Accepts connections again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startCuttableProxy(targetPort: number): Promise<CuttableProxy> {
  const open = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      // A reset on one side ends the other; the error itself is what the client sees.
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as { port: number }).port);
      });
    });
  const port = await listen(0);
  const cut = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // RST, not FIN: a response cut off mid-body is an error to the client, never a short body.
    for (const socket of open) socket.resetAndDestroy();
    await closed;
  };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    cut,
    restore: async () => {
      await listen(port);
    },
    close: async () => {
      if (server.listening) await cut();
    },
  };
}

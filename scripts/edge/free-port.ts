import { createServer } from 'node:net';

// Below Linux's ephemeral range (32768–60999): the kernel never hands these ports to an
// outgoing connection or a `listen(0)`, so a port picked here stays free between the pick and
// the bind, even when that is seconds later (the e2e edge port is picked before the OIDC
// issuer, the direct stack and the replicas start). A port from `listen(0)` did not: a
// connection to PostgreSQL could take it meanwhile, and Envoy then failed to bind it.
const LOW = 20_000;
const HIGH = 32_767;

/** A loopback port nobody listens on, outside the ephemeral range; the caller binds it. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW + 1));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between ${LOW} and ${HIGH} after 100 tries`);
}

function canListen(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () =>
      server.close(() => resolve(true)),
    );
  });
}

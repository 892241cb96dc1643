import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};

export interface StaticOptions {
  /** The built SPA (web/dist); undefined when the console is not built. */
  root: string | undefined;
  /** Extra origins the SPA may connect to (the advertised OIDC issuer). */
  connectSources: readonly string[];
}

/** Security headers every console response carries (issue "Console I"). */
export function securityHeaders(connectSources: readonly string[]): Record<string, string> {
  const connect = ["'self'", ...connectSources].join(' ');
  return {
    'content-security-policy': [
      "default-src 'self'",
      // WebAssembly compiled by the console's own scripts (hash-wasm's SHA-256 of an export);
      // still no eval of JavaScript and no script from elsewhere.
      "script-src 'self' 'wasm-unsafe-eval'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      `connect-src ${connect}`,
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "form-action 'self'",
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
  };
}

/**
 * Serves the built SPA: files by path, and index.html for any other GET so client-side routes
 * survive a reload. index.html is never cached (it names the hashed bundles); hashed assets are.
 */
export function createStaticHandler(options: StaticOptions) {
  const root = options.root ? resolve(options.root) : undefined;
  const headers = securityHeaders(options.connectSources);
  return (req: IncomingMessage, res: ServerResponse): void => {
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res
        .writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' })
        .end('method not allowed');
      return;
    }
    if (!root || !existsSync(join(root, 'index.html'))) {
      res
        .writeHead(503, {
          'content-type': 'text/plain; charset=utf-8',
          'cache-control': 'no-store',
        })
        .end('The console is not built. Run `npm start`, which builds it.\n');
      return;
    }
    const path = decodedPath(req.url);
    if (path === undefined) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('bad request: path does not decode');
      return;
    }
    const candidate = normalize(join(root, path));
    const inside = candidate === root || candidate.startsWith(root + sep);
    const isFile = inside && existsSync(candidate) && statSync(candidate).isFile();
    const file = isFile ? candidate : join(root, 'index.html');
    const isIndex = file === join(root, 'index.html');
    if (!isFile && extname(path) !== '') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': isIndex ? 'no-store' : 'public, max-age=31536000, immutable',
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    // pipeline, not pipe: a read error (a file replaced by a rebuild) must end this response,
    // not surface as an unhandled 'error' event that ends the process.
    pipeline(createReadStream(file), res, () => undefined);
  };
}

/**
 * The decoded path of an origin-form request target, or undefined when it is not one or does not
 * decode (`/%E0`). Not `new URL(target, base)`: it throws on `//` and reads `//host/x` as a host.
 */
export function decodedPath(target: string | undefined): string | undefined {
  if (target === undefined || !target.startsWith('/')) return undefined;
  try {
    const path = decodeURIComponent(target.split(/[?#]/, 1)[0] as string);
    return path.includes('\0') ? undefined : path;
  } catch {
    return undefined;
  }
}

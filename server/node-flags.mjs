/**
 * The Node.js flags every launcher of the built server passes: `npm start` (scripts/start.mjs),
 * `npm run edge`, the Docker image's CMD (server/Dockerfile; test/node-flags.test.ts holds it to
 * this list) and the bench's server child. V8 options are refused in NODE_OPTIONS, so they go on
 * the command line.
 *
 * --initial-old-space-size: a floor under V8's old-generation limit. A server's live heap is
 * small (35–40 MB), and V8 sets the next full collection a few MB above it; a capture or a
 * restore moves hundreds of MB a second through Buffers whose memory counts against that limit
 * until a collection frees them, so V8 ran a full mark-compact every 70–100 ms: ~70 per
 * capture of 1 000 000 entries, ~3 s of CPU on a 2-core machine (docs/performance.md, "the
 * server's garbage collection"). With the floor at 96 MB there are two or three in a whole
 * bench; the resident set stays within a few MB of what it was.
 */
export const SERVER_NODE_FLAGS = ['--enable-source-maps', '--initial-old-space-size=96'];

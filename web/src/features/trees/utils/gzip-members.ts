import { Gunzip } from 'fflate';

/**
 * Reading a gzip file in the browser, every member of it. An exported artifact is gzip written
 * as a series of members (RFC 1952 §2.2: the server compresses ~256 KiB blocks in parallel), and
 * the browsers' DecompressionStream reads one member only: past its end it fails with "junk
 * after end of compressed data". fflate's streaming Gunzip reads member after member as the
 * bytes come. It does not check a member's trailer, though, so a file cut inside its last
 * trailer, or followed by junk, would read as whole: each member's CRC-32 and length are checked
 * here against what it inflated to (what DecompressionStream checks).
 */

/** Whether a file starts with the gzip magic bytes (its name is not trusted). */
export async function isGzip(file: Blob): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  return head[0] === 0x1f && head[1] === 0x8b;
}

/** A gzip file's decompressed bytes, member after member. */
export interface GunzippedStream {
  stream: ReadableStream<Uint8Array>;
  /** File bytes per decompressed byte so far, to count progress in file bytes. */
  fileBytesPerByte(): number;
}

/** Thrown when the file is not gzip after all, or is damaged or cut short. */
export class GzipError extends Error {}

const DAMAGED = 'The gzip file is damaged or cut short';

export function gunzipMembers(source: ReadableStream<Uint8Array>): GunzippedStream {
  let fileBytes = 0;
  let inflatedBytes = 0;
  const trailers = new TrailerCheck();
  const gunzip = new Gunzip();
  let output: TransformStreamDefaultController<Uint8Array> | undefined;
  gunzip.ondata = (chunk) => {
    inflatedBytes += chunk.length;
    trailers.inflated(chunk);
    if (chunk.length > 0) output?.enqueue(chunk);
  };
  // Called once the member before has inflated in full, with where the next one starts.
  gunzip.onmember = (offset) => trailers.memberEndsAt(offset);
  const push = (chunk: Uint8Array, final: boolean) => {
    try {
      gunzip.push(chunk, final);
    } catch (error) {
      throw error instanceof GzipError ? error : new GzipError(DAMAGED, { cause: error });
    }
  };
  const stream = source.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        output = controller;
        fileBytes += chunk.length;
        trailers.read(chunk);
        push(chunk, false);
      },
      flush(controller) {
        output = controller;
        push(new Uint8Array(0), true);
        trailers.end();
      },
    }),
  );
  return { stream, fileBytesPerByte: () => (inflatedBytes > 0 ? fileBytes / inflatedBytes : 1) };
}

const TRAILER_BYTES = 8;
/**
 * File bytes kept behind the newest chunk to find a member's trailer in. Gunzip reports a new
 * member as soon as it has its header, so the trailer before it is a few bytes back; this is
 * far more than it ever holds back.
 */
const KEPT_BYTES = 64 * 1024;

/** Each member's trailer (CRC-32 and length of its output, RFC 1952 §2.3.1) against its output. */
class TrailerCheck {
  private recent = new Uint8Array(0);
  /** File offset of `recent[0]`. */
  private recentStart = 0;
  private crc = ~0;
  private length = 0;

  read(chunk: Uint8Array): void {
    const keep = this.recent.subarray(Math.max(0, this.recent.length - KEPT_BYTES));
    this.recentStart += this.recent.length - keep.length;
    const next = new Uint8Array(keep.length + chunk.length);
    next.set(keep);
    next.set(chunk, keep.length);
    this.recent = next;
  }

  inflated(chunk: Uint8Array): void {
    this.crc = crc32Update(this.crc, chunk);
    this.length += chunk.length;
  }

  memberEndsAt(offset: number): void {
    this.check(offset - TRAILER_BYTES - this.recentStart);
  }

  end(): void {
    this.check(this.recent.length - TRAILER_BYTES);
  }

  private check(at: number): void {
    // A trailer out of reach (never, see KEPT_BYTES) is not checked rather than refused.
    if (at >= 0 && at + TRAILER_BYTES <= this.recent.length) {
      const view = new DataView(this.recent.buffer, this.recent.byteOffset + at, TRAILER_BYTES);
      const crc = ~this.crc >>> 0;
      // ISIZE is the length modulo 2^32.
      if (view.getUint32(0, true) !== crc || view.getUint32(4, true) !== this.length >>> 0) {
        throw new GzipError(DAMAGED);
      }
    } else if (at < 0 && this.recentStart === 0) {
      throw new GzipError(DAMAGED); // shorter than a header and a trailer
    }
    this.crc = ~0;
    this.length = 0;
  }
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let bit = 0; bit < 8; bit++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (the gzip trailer's), carried over chunks: start at ~0, finish with `~crc >>> 0`. */
function crc32Update(crc: number, bytes: Uint8Array): number {
  let c = crc;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return c;
}

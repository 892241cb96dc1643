/**
 * Reading a gzip file in the browser, every member of it. An exported artifact is gzip written
 * as a series of members (RFC 1952 §2.2: the server compresses ~256 KiB blocks in parallel), and
 * the browsers' DecompressionStream reads one member only: past its end it fails with "junk
 * after end of compressed data", and it never says how many input bytes it used.
 *
 * So members are found here. A member starts with the bytes 1f 8b 08 and a flags byte with no
 * reserved bit; inside compressed data those bytes can occur by chance, but a false boundary cuts
 * a member's deflate stream short and DecompressionStream then fails (a cut stream never checks
 * out: its trailer holds the CRC-32 and length of the whole member). Each candidate boundary is
 * tried in order; the first one whose bytes inflate cleanly ends the member. Only one member's
 * compressed bytes and output are held at a time; the last member is streamed as it inflates.
 */

/** Whether a file starts with the gzip magic bytes (its name is not trusted). */
export async function isGzip(file: Blob): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 2).arrayBuffer());
  return head[0] === 0x1f && head[1] === 0x8b;
}

/** A gzip file's decompressed bytes, member after member. */
export interface GunzippedStream {
  stream: ReadableStream<Uint8Array>;
  /**
   * File bytes per decompressed byte in the member being read (from its compressed size and,
   * for the last member, the length its trailer records), to count progress in file bytes.
   */
  fileBytesPerByte(): number;
}

export function gunzipMembers(source: ReadableStream<Uint8Array>): GunzippedStream {
  let ratio = 1;
  const members = readMembers(source, (compressed, inflated) => {
    ratio = inflated > 0 ? compressed / inflated : 1;
  });
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await members.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await members.return(undefined);
    },
  });
  return { stream, fileBytesPerByte: () => ratio };
}

/** Thrown when the file is not gzip after all, or is damaged or cut short. */
export class GzipError extends Error {}

async function* readMembers(
  source: ReadableStream<Uint8Array>,
  onMember: (compressedBytes: number, inflatedBytes: number) => void,
): AsyncGenerator<Uint8Array> {
  const reader = source.getReader();
  const pending = new ByteBuffer();
  let searchFrom = 1;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (value) pending.append(value);
      // Every complete member before the last boundary found so far.
      for (;;) {
        const found = findMemberStart(pending.view(), searchFrom);
        if (found.start === undefined) {
          searchFrom = found.resumeAt;
          break;
        }
        const member = await inflateWhole(pending.view().subarray(0, found.start));
        if (member === null) {
          searchFrom = found.start + 1; // a chance match inside compressed data
          continue;
        }
        onMember(found.start, byteLength(member));
        yield* member;
        pending.drop(found.start);
        searchFrom = 1;
      }
      if (done) break;
    }
    const last = pending.view();
    if (last.length === 0) return;
    onMember(last.length, recordedLength(last));
    yield* inflateStreaming(last);
  } finally {
    reader.releaseLock();
  }
}

const MEMBER_HEADER_BYTES = 10;
const RESERVED_FLAG_BITS = 0xe0;

/**
 * The first offset ≥ `from` where a member header could start, or where to resume once more
 * bytes have come (a candidate whose header is not all there yet, or the end).
 */
function findMemberStart(
  bytes: Uint8Array,
  from: number,
): { start: number; resumeAt?: never } | { start?: never; resumeAt: number } {
  for (let at = bytes.indexOf(0x1f, from); at !== -1; at = bytes.indexOf(0x1f, at + 1)) {
    if (at + MEMBER_HEADER_BYTES > bytes.length) return { resumeAt: at };
    if (bytes[at + 1] === 0x8b && bytes[at + 2] === 8 && !(bytes[at + 3]! & RESERVED_FLAG_BITS)) {
      return { start: at };
    }
  }
  return { resumeAt: Math.max(from, bytes.length) };
}

/** A member's output, or null when the bytes are not exactly one whole member. */
async function inflateWhole(bytes: Uint8Array): Promise<Uint8Array[] | null> {
  const chunks: Uint8Array[] = [];
  try {
    for await (const chunk of inflateStreaming(bytes)) chunks.push(chunk);
    return chunks;
  } catch {
    return null;
  }
}

async function* inflateStreaming(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  const inflated = new Blob([bytes.slice()])
    .stream()
    .pipeThrough(new DecompressionStream('gzip'))
    .getReader();
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await inflated.read();
    } catch (error) {
      throw new GzipError('The gzip file is damaged or cut short', { cause: error });
    }
    if (next.done) return;
    yield next.value;
  }
}

/** ISIZE, the member's uncompressed length (mod 2^32) from its trailer's last four bytes. */
function recordedLength(member: Uint8Array): number {
  if (member.length < 4) return 0;
  const view = new DataView(member.buffer, member.byteOffset, member.byteLength);
  return view.getUint32(member.length - 4, true);
}

function byteLength(chunks: Uint8Array[]): number {
  return chunks.reduce((sum, chunk) => sum + chunk.length, 0);
}

/** Appends in amortised constant time (capacity doubles) and drops from the front. */
class ByteBuffer {
  private bytes = new Uint8Array(64 * 1024);
  private start = 0;
  private end = 0;

  append(chunk: Uint8Array): void {
    if (this.end + chunk.length > this.bytes.length) {
      const size = this.end - this.start;
      const target =
        size + chunk.length > this.bytes.length
          ? new Uint8Array(Math.max(this.bytes.length * 2, size + chunk.length))
          : this.bytes;
      // set() copies correctly when source and target share the buffer.
      target.set(this.bytes.subarray(this.start, this.end), 0);
      this.bytes = target;
      this.start = 0;
      this.end = size;
    }
    this.bytes.set(chunk, this.end);
    this.end += chunk.length;
  }

  view(): Uint8Array {
    return this.bytes.subarray(this.start, this.end);
  }

  drop(count: number): void {
    this.start += count;
  }
}

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DownloadMismatchError, streamToSink, type ExpectedArtifact } from './artifact-download';
import { blobPartsSink, streamSink } from './download-sinks';

/** Deterministic bytes that are not all alike (a wrong offset shows in the digest). */
function bytesOf(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 31 + (i >> 8)) & 0xff;
  return bytes;
}

/** The bytes in `size`-byte chunks, as a stream delivers them. */
async function* chunked(bytes: Uint8Array, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

// Known answers, as `sha256sum` says for the same bytes (python's hashlib agreed).
const SMALL = bytesOf(20_001);
const SMALL_SHA256 = '65220707be90a740697a26c3570e792a95db6e814311d639265fb3671071fc7a';
const LARGE = bytesOf(3 * 1024 * 1024 + 7);
const LARGE_SHA256 = '18116a183cac31924f957f7737d1966538cd4cf468f1d9ebde7bdc978196dd9f';
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

function expected(bytes: Uint8Array, sha256: string): ExpectedArtifact {
  return { artifactId: 'part-00001', byteSize: BigInt(bytes.length), sha256 };
}

/**
 * A real WritableStream standing for the picked file, behind the same streamSink a picked file
 * gets: what reached it, in writes, and whether it was closed or aborted.
 */
function recordingFile() {
  const writes: Uint8Array[] = [];
  const file = { writes, closed: false, aborted: undefined as unknown };
  const stream = new WritableStream<Uint8Array<ArrayBuffer>>({
    // A copy, as a file's writable makes: the window is refilled once the write resolves.
    write: (chunk) => void writes.push(chunk.slice()),
    close: () => void (file.closed = true),
    abort: (reason) => void (file.aborted = reason ?? 'aborted'),
  });
  return { file, sink: streamSink(stream, 'bk-1-part-00001.ndjson.gz') };
}

/** Byte-for-byte equality; toEqual walks a 3 MiB array element by element, far too slowly. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

function joined(parts: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}

describe('streamToSink into a file', () => {
  it.each([
    ['chunks smaller than the window', SMALL, SMALL_SHA256, 4_096, 5_000],
    ['chunks larger than the window', SMALL, SMALL_SHA256, 7_000, 3_000],
    ['3 MiB through 1 MiB windows', LARGE, LARGE_SHA256, 65_536, 1024 * 1024],
  ])(
    '%s: every byte in order, never more than a window a write, then closed',
    async (_, bytes, sha256, chunkSize, windowBytes) => {
      const { file, sink } = recordingFile();
      const seen: number[] = [];
      const download = await streamToSink(
        chunked(bytes, chunkSize),
        sink,
        expected(bytes, sha256),
        (n) => seen.push(n),
        windowBytes,
      );
      expect(download).toEqual({ size: bytes.length, sha256 });
      expect(sameBytes(joined(file.writes), bytes)).toBe(true);
      expect(Math.max(...file.writes.map((w) => w.length))).toBeLessThanOrEqual(windowBytes);
      expect(file.writes).toHaveLength(Math.ceil(bytes.length / windowBytes));
      expect(file.closed).toBe(true);
      expect(file.aborted).toBeUndefined();
      expect(seen).toHaveLength(Math.ceil(bytes.length / chunkSize));
      expect(seen.at(-1)).toBe(bytes.length);
    },
  );

  it('copies each chunk: a stream that reuses its buffer does not change what was written', async () => {
    async function* reusing() {
      const buffer = new Uint8Array(4);
      for (let i = 0; i < 3; i++) {
        buffer.fill(i + 1);
        yield buffer;
      }
    }
    const bytes = new Uint8Array([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]);
    const sha256 = 'c814bd1acd92fcf2f7e38558b07266882886117227a58838b493cdbbcda8c0db';
    const { file, sink } = recordingFile();
    await streamToSink(reusing(), sink, expected(bytes, sha256), () => undefined, 5);
    expect(joined(file.writes)).toEqual(bytes);
  });

  it('another SHA-256 aborts the file and tells the admin to delete it', async () => {
    const { file, sink } = recordingFile();
    const wrong = expected(SMALL, EMPTY_SHA256);
    const failure = streamToSink(chunked(SMALL, 4_096), sink, wrong, () => undefined, 5_000);
    await expect(failure).rejects.toThrow(DownloadMismatchError);
    await expect(failure).rejects.toThrow(
      `SHA-256 of part-00001 is ${SMALL_SHA256}, the manifest says ${EMPTY_SHA256}; delete bk-1-part-00001.ndjson.gz, it is not this artifact`,
    );
    // The bytes went out as they came; the check could only come after the last one.
    expect(joined(file.writes)).toEqual(SMALL);
    expect(file.closed).toBe(false);
    expect(file.aborted).toBeInstanceOf(DownloadMismatchError);
  });

  it('stops at the first byte past the manifest size, without reading the rest', async () => {
    let pulled = 0;
    async function* endless() {
      for (;;) {
        pulled++;
        yield new Uint8Array(1_000);
      }
    }
    const { file, sink } = recordingFile();
    const small = { artifactId: 'part-00001', byteSize: 2_500n, sha256: EMPTY_SHA256 };
    await expect(streamToSink(endless(), sink, small, () => undefined)).rejects.toThrow(
      'the server sent more than the 2500 bytes the manifest says part-00001 holds',
    );
    expect(pulled).toBe(3);
    expect(file.aborted).toBeInstanceOf(DownloadMismatchError);
  });

  it('an empty download of a non-empty artifact is refused', async () => {
    const { file, sink } = recordingFile();
    const empty = chunked(new Uint8Array(0), 1);
    await expect(
      streamToSink(empty, sink, expected(SMALL, SMALL_SHA256), () => undefined),
    ).rejects.toThrow('the server sent no bytes for part-00001 (the manifest says 20001)');
    expect(file.writes).toEqual([]);
    expect(file.aborted).toBeDefined();
  });

  it('a stream that fails half-way aborts the file and the failure is what is reported', async () => {
    async function* failing() {
      yield SMALL.subarray(0, 8_000);
      throw new Error('the connection was reset');
    }
    const { file, sink } = recordingFile();
    await expect(
      streamToSink(failing(), sink, expected(SMALL, SMALL_SHA256), () => undefined, 5_000),
    ).rejects.toThrow('the connection was reset');
    expect(file.closed).toBe(false);
    expect(file.aborted).toEqual(new Error('the connection was reset'));
  });
});

describe('streamToSink into Blob parts (browsers without a file picker)', () => {
  let saved: Blob[];
  beforeEach(() => {
    saved = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved.push(blob as Blob);
      return 'blob:test';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  });
  afterEach(() => vi.restoreAllMocks());

  it('the parts are saved as one download holding every byte', async () => {
    const sink = blobPartsSink('bk-1-part-00001.ndjson.gz');
    await streamToSink(chunked(LARGE, 65_536), sink, expected(LARGE, LARGE_SHA256), () => {});
    expect(saved).toHaveLength(1);
    expect(saved[0]!.type).toBe('application/gzip');
    expect(sameBytes(new Uint8Array(await saved[0]!.arrayBuffer()), LARGE)).toBe(true);
  });

  it('a mismatch saves nothing and says so', async () => {
    const sink = blobPartsSink('bk-1-part-00001.ndjson.gz');
    const wrong = expected(LARGE, SMALL_SHA256);
    await expect(streamToSink(chunked(LARGE, 65_536), sink, wrong, () => {})).rejects.toThrow(
      /; nothing was saved$/,
    );
    expect(saved).toEqual([]);
  });
});

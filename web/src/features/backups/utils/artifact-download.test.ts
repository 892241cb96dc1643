import { describe, expect, it } from 'vitest';
import { collectChunks, defaultHashing, type Hashing } from './artifact-download';

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
const ARTIFACT_SHA256 = '65220707be90a740697a26c3570e792a95db6e814311d639265fb3671071fc7a';
const REUSED_SHA256 = 'c814bd1acd92fcf2f7e38558b07266882886117227a58838b493cdbbcda8c0db';

describe.each<Hashing>(['native', 'incremental'])('collectChunks, %s SHA-256', (hashing) => {
  const artifact = bytesOf(20_001);

  it.each([
    ['the manifest size', artifact.length],
    ['no size', 0],
    ['a size too small (the server sent more)', 100],
    ['a size too large (the server sent less)', artifact.length + 4_096],
  ])('keeps every byte in order and its digest with %s as the hint', async (_, hint) => {
    const seen: number[] = [];
    const { blob, sha256 } = await collectChunks(
      chunked(artifact, 4_096),
      (n) => seen.push(n),
      hint,
      hashing,
    );
    expect(blob.size).toBe(artifact.length);
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(artifact);
    expect(sha256).toBe(ARTIFACT_SHA256);
    expect(seen).toEqual([4_096, 8_192, 12_288, 16_384, artifact.length]);
  });

  it('copies each chunk: a stream that reuses its buffer does not change what was received', async () => {
    async function* reusing() {
      const buffer = new Uint8Array(4);
      for (let i = 0; i < 3; i++) {
        buffer.fill(i + 1);
        yield buffer;
      }
    }
    const { blob, sha256 } = await collectChunks(reusing(), () => undefined, 12, hashing);
    const expected = new Uint8Array([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]);
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(expected);
    expect(sha256).toBe(REUSED_SHA256);
  });

  it('an empty download is an empty Blob with the SHA-256 of nothing', async () => {
    const { blob, sha256 } = await collectChunks(
      chunked(new Uint8Array(0), 1),
      () => {},
      0,
      hashing,
    );
    expect(blob.size).toBe(0);
    expect(sha256).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});

describe('defaultHashing', () => {
  it('is native where WebCrypto is there (a secure context), incremental where it is not', () => {
    expect(defaultHashing()).toBe('native');
    const subtle = Object.getOwnPropertyDescriptor(globalThis.crypto, 'subtle');
    Object.defineProperty(globalThis.crypto, 'subtle', { value: undefined, configurable: true });
    try {
      expect(defaultHashing()).toBe('incremental');
    } finally {
      if (subtle) Object.defineProperty(globalThis.crypto, 'subtle', subtle);
      else delete (globalThis.crypto as { subtle?: unknown }).subtle;
    }
  });
});

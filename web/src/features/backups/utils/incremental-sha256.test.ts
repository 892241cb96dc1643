import { describe, expect, it } from 'vitest';
import { incrementalSha256, type Sha256Engine } from './incremental-sha256';

/** Deterministic bytes that are not all alike (a wrong offset shows in the digest). */
function bytesOf(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 31 + (i >> 8)) & 0xff;
  return bytes;
}

// Known answers, as `sha256sum` says for the same bytes (python's hashlib agreed).
const LARGE = bytesOf(3 * 1024 * 1024 + 7);
const LARGE_SHA256 = '18116a183cac31924f957f7737d1966538cd4cf468f1d9ebde7bdc978196dd9f';
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

describe.each<Sha256Engine>(['wasm', 'js'])('incrementalSha256, %s', (engine) => {
  it('gives the whole input’s digest however it is cut', async () => {
    for (const cut of [1, 63, 64, 65_536, 1024 * 1024]) {
      const hash = await incrementalSha256(engine);
      // Uneven pieces: the cut, then the cut + 1, … so no two boundaries line up alike.
      for (let at = 0, size = cut; at < LARGE.length; at += size, size++)
        hash.update(LARGE.subarray(at, at + size));
      expect(hash.hex()).toBe(LARGE_SHA256);
    }
  });

  it('of nothing is the SHA-256 of the empty string', async () => {
    expect((await incrementalSha256(engine)).hex()).toBe(EMPTY_SHA256);
  });

  it('two at once do not share state', async () => {
    const [a, b] = await Promise.all([incrementalSha256(engine), incrementalSha256(engine)]);
    a.update(LARGE);
    expect(b.hex()).toBe(EMPTY_SHA256);
    expect(a.hex()).toBe(LARGE_SHA256);
  });
});

import type { Readable } from 'node:stream';
import {
  chunksOf,
  exportChunkSize,
  releaseBlocks,
  sharedBlocks,
  splitVerifiedTail,
  type ExportOptions,
} from '../artifact-export.js';
import { dataLoss } from '../artifact-reader.js';
import type { ArtifactRef } from '../artifact-types.js';
import { throwIfAborted } from '../durable-fs.js';
import { OffThreadSha256 } from '../file-hash-worker.js';
import { readFailure } from './s3-artifact-reads.js';
import type { S3ObjectStore } from './s3-object-store.js';

/**
 * Streams an artifact's object as chunks of at most `chunkSize`. As on the directory, a size or
 * recorded sha256 that differs fails before the first byte, and the last block is held back
 * until the whole hash matched: a damaged object ends in DataLoss and no client holds all of its
 * bytes. A server that goes away mid-stream ends it Unavailable.
 *
 * The response body arrives in socket-sized pieces (16-64 KiB); one message each cost more than
 * the bytes (docs/performance.md, row 19). The pieces are gathered into the directory export's
 * two shared 1 MiB blocks, which the hash worker reads where they lie while the main thread
 * frames their chunks, as the directory export does.
 */
export async function* exportObject(
  objects: S3ObjectStore,
  where: string,
  key: string,
  artifact: ArtifactRef,
  options: ExportOptions = {},
): AsyncGenerator<Uint8Array, void, undefined> {
  const chunkSize = exportChunkSize(options);
  const { signal } = options;
  const expected = artifact.sha256.toLowerCase();
  const size = artifact.byteSize;
  throwIfAborted(signal);
  let body: Readable;
  try {
    const read = await objects.get(key, signal ? { signal } : {});
    body = read.body;
    if (read.objectBytes !== size) {
      body.destroy();
      throw dataLoss(
        artifact.artifactId,
        `stored ${read.objectBytes} bytes, manifest says ${size}`,
      );
    }
    if (read.sha256 !== undefined && read.sha256 !== expected) {
      body.destroy();
      const why = 'the sha256 recorded with the object differs from the manifest';
      throw dataLoss(artifact.artifactId, why);
    }
  } catch (error) {
    throw readFailure(error, where, artifact, signal);
  }
  const hash = new OffThreadSha256();
  let unfinished: OffThreadSha256 | undefined = hash;
  const slots = sharedBlocks(size);
  let hashed: Promise<unknown> = Promise.resolve();
  let seen = 0;
  let fill = 0;
  let slot = slots[0];
  let last: Buffer | undefined;
  try {
    try {
      for await (const piece of body as AsyncIterable<Buffer>) {
        if (seen + piece.length > size) {
          throw dataLoss(artifact.artifactId, `the object holds more than ${size} bytes`);
        }
        for (let at = 0; at < piece.length;) {
          const take = Math.min(slot.length - fill, piece.length - at);
          piece.copy(slot, fill, at, at + take);
          fill += take;
          at += take;
          seen += take;
          if (fill < slot.length && seen < size) continue;
          const block = slot.subarray(0, fill);
          // The slot filled next held the block before last: its hash is done (awaited here)
          // and its chunks were all taken (written out before the consumer asked for more).
          await hashed;
          hashed = hash.update(block);
          hashed.catch(() => undefined);
          if (seen === size) {
            // All but a tail goes out while the worker hashes it; the tail waits for the match.
            const [head, tail] = splitVerifiedTail(block);
            yield* chunksOf(head, chunkSize, signal);
            last = tail;
            break;
          }
          yield* chunksOf(block, chunkSize, signal);
          slot = slot === slots[0] ? slots[1] : slots[0];
          fill = 0;
        }
      }
    } catch (error) {
      throw readFailure(error, where, artifact, signal);
    } finally {
      body.destroy();
    }
    if (seen !== size) throw dataLoss(artifact.artifactId, `read ${seen} bytes of ${size}`);
    const digest = await hash.digest();
    unfinished = undefined; // the digest ended the worker's state
    if (digest !== expected) throw dataLoss(artifact.artifactId, 'checksum mismatch');
    if (last) yield* chunksOf(last, chunkSize, signal);
  } finally {
    unfinished?.release();
    // As on the directory: an aborted export's last chunk may still wait in a socket's buffer.
    if (!signal?.aborted) releaseBlocks(slots);
  }
}

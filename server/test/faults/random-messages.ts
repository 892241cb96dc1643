// Valid protobuf encodings of random requests, built from the descriptors, for the fuzzer to
// send as they are or to mutate. Values come partly from a pool of plausible ids so some calls
// get past validation into the handlers.
import { ScalarType, type DescField, type DescMessage } from '@bufbuild/protobuf';
import type { SeededRandom } from './seeded-random.js';

export const WIRE = { varint: 0, i64: 1, len: 2, i32: 5 } as const;

const PLAUSIBLE_STRINGS = [
  '',
  'orders',
  'default',
  'k',
  'a/b',
  '1',
  '{"name":"x"}',
  '[1,2',
  'bk_00000000-0000-0000-0000-000000000000',
  'part-00001',
  'op-1',
  '../../etc/passwd',
  'ünïcødé ✓',
  'x'.repeat(300),
];

/** Appends a base-128 varint (BigInt, so 64-bit and negative values encode as protobuf does). */
export function pushVarint(out: number[], value: bigint): void {
  let v = BigInt.asUintN(64, value);
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
}

export function pushTag(out: number[], fieldNo: number, wireType: number): void {
  pushVarint(out, BigInt((fieldNo << 3) | wireType));
}

export function pushLengthDelimited(out: number[], bytes: Uint8Array | number[]): void {
  pushVarint(out, BigInt(bytes.length));
  for (const b of bytes) out.push(b);
}

/** The wire type a scalar of this type is encoded with. */
export function wireTypeOf(type: ScalarType): number {
  switch (type) {
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return WIRE.len;
    case ScalarType.FIXED32:
    case ScalarType.SFIXED32:
    case ScalarType.FLOAT:
      return WIRE.i32;
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
    case ScalarType.DOUBLE:
      return WIRE.i64;
    default:
      return WIRE.varint;
  }
}

function randomVarint(rng: SeededRandom): bigint {
  return rng.pick([
    0n,
    1n,
    -1n,
    BigInt(rng.int(1000)),
    BigInt(rng.int(2 ** 31)),
    2n ** 63n - 1n,
    -(2n ** 63n),
    2n ** 64n - 1n,
  ]);
}

function pushScalar(out: number[], type: ScalarType, rng: SeededRandom): void {
  switch (wireTypeOf(type)) {
    case WIRE.len: {
      const text = rng.chance(0.8) ? rng.pick(PLAUSIBLE_STRINGS) : undefined;
      pushLengthDelimited(
        out,
        text === undefined ? rng.bytes(rng.int(40)) : new TextEncoder().encode(text),
      );
      return;
    }
    case WIRE.i32:
      for (const b of rng.bytes(4)) out.push(b);
      return;
    case WIRE.i64:
      for (const b of rng.bytes(8)) out.push(b);
      return;
    default:
      pushVarint(out, type === ScalarType.BOOL ? BigInt(rng.int(2)) : randomVarint(rng));
  }
}

function pushField(out: number[], field: DescField, rng: SeededRandom, depth: number): void {
  const no = field.number;
  switch (field.fieldKind) {
    case 'scalar':
      pushTag(out, no, wireTypeOf(field.scalar));
      pushScalar(out, field.scalar, rng);
      return;
    case 'enum':
      pushTag(out, no, WIRE.varint);
      pushVarint(out, BigInt(rng.chance(0.8) ? rng.pick(field.enum.values).number : rng.int(99)));
      return;
    case 'message':
      pushTag(out, no, WIRE.len);
      pushLengthDelimited(out, encodeRandom(field.message, rng, depth + 1));
      return;
    case 'list':
      for (let i = rng.int(3); i > 0; i--) {
        if (field.listKind === 'message') {
          pushTag(out, no, WIRE.len);
          pushLengthDelimited(out, encodeRandom(field.message, rng, depth + 1));
        } else if (field.listKind === 'enum') {
          pushTag(out, no, WIRE.varint);
          pushVarint(out, BigInt(rng.int(20)));
        } else {
          pushTag(out, no, wireTypeOf(field.scalar));
          pushScalar(out, field.scalar, rng);
        }
      }
      return;
    case 'map':
      for (let i = rng.int(3); i > 0; i--) {
        const entry: number[] = [];
        pushTag(entry, 1, wireTypeOf(field.mapKey));
        pushScalar(entry, field.mapKey, rng);
        if (field.mapKind === 'message') {
          pushTag(entry, 2, WIRE.len);
          pushLengthDelimited(entry, encodeRandom(field.message, rng, depth + 1));
        } else if (field.mapKind === 'enum') {
          pushTag(entry, 2, WIRE.varint);
          pushVarint(entry, BigInt(rng.int(20)));
        } else {
          pushTag(entry, 2, wireTypeOf(field.scalar));
          pushScalar(entry, field.scalar, rng);
        }
        pushTag(out, no, WIRE.len);
        pushLengthDelimited(out, entry);
      }
  }
}

/** A valid encoding of a random message of this type (each field present with p = 0.7). */
export function encodeRandom(desc: DescMessage, rng: SeededRandom, depth = 0): Uint8Array {
  const out: number[] = [];
  if (depth > 3) return new Uint8Array(out);
  for (const field of desc.fields) {
    if (rng.chance(0.7)) pushField(out, field, rng, depth);
  }
  return new Uint8Array(out);
}

/**
 * An encoding whose fields carry the wrong wire type (a string sent as a varint, an int as
 * length-delimited bytes, a message as a fixed64…): well-formed protobuf, wrong shape.
 */
export function encodeWrongTypes(desc: DescMessage, rng: SeededRandom): Uint8Array {
  const out: number[] = [];
  const fields = desc.fields.length > 0 ? desc.fields : [];
  for (const field of fields) {
    const right =
      field.fieldKind === 'scalar'
        ? wireTypeOf(field.scalar)
        : field.fieldKind === 'enum'
          ? WIRE.varint
          : WIRE.len;
    const wrong = rng.pick([WIRE.varint, WIRE.i64, WIRE.len, WIRE.i32].filter((w) => w !== right));
    pushTag(out, field.number, wrong);
    if (wrong === WIRE.varint) pushVarint(out, randomVarint(rng));
    else if (wrong === WIRE.i64) for (const b of rng.bytes(8)) out.push(b);
    else if (wrong === WIRE.i32) for (const b of rng.bytes(4)) out.push(b);
    else pushLengthDelimited(out, rng.bytes(rng.int(20)));
  }
  // Messages without fields still get a stray group tag (wire types 3/4 are deprecated).
  if (fields.length === 0 || rng.chance(0.2)) pushTag(out, 1 + rng.int(20), 3 + rng.int(2));
  return new Uint8Array(out);
}

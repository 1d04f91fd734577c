import os from 'node:os';
import { sql, type RawBuilder } from 'kysely';

/**
 * How the faces' embeddings and the people's centroids are stored (issue 48): bytea, the numbers as
 * Float32 little-endian, 4 bytes each (4 KB for an embedding of 1024). As real[] they were read as
 * text, each number parsed (10,000 embeddings: 5-10 s on PGlite); as bytes they are copied.
 */
const littleEndian = os.endianness() === 'LE';

/** The stored bytes of a vector (its numbers rounded to Float32, as real[] did). */
export function vectorBytes(vector: ArrayLike<number>): Buffer {
  const bytes = Buffer.from(Float32Array.from(vector).buffer);
  return littleEndian ? bytes : bytes.swap32();
}

/** A stored vector's numbers (a copy: the bytes a driver returns need not be aligned for a Float32Array). */
export function vectorOf(bytes: Uint8Array): Float32Array {
  const out = new Float32Array(bytes.byteLength >> 2);
  const view = Buffer.from(out.buffer);
  view.set(bytes.subarray(0, out.length * 4));
  if (!littleEndian) view.swap32();
  return out;
}

/**
 * A vector column read as hex text (`encode(column, 'hex')`), for reads of many rows: PGlite turns
 * bytea into bytes in JavaScript a byte at a time, about 7 times slower than Buffer's hex decoding
 * (docs/pictures.md); on PostgreSQL it is the same work either way.
 */
export const hexOf = (column: string): RawBuilder<string> => sql<string>`encode(${sql.ref(column)}, 'hex')`;

/** The numbers of a vector read with hexOf; written into `into` from number `at` when given (a packed matrix). */
export function vectorOfHex(hex: string, into?: Float32Array, at = 0): Float32Array {
  const out = into ?? new Float32Array(hex.length >> 3);
  const length = Math.min(hex.length >> 3, out.length - at);
  const view = Buffer.from(out.buffer, out.byteOffset + at * 4, length * 4);
  view.write(hex, 'hex');
  if (!littleEndian) view.swap32();
  return out;
}

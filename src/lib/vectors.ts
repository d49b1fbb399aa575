/** Small vector helpers for embeddings (unit vectors compared by dot product). */

/**
 * Dot product; for unit vectors, their cosine similarity.
 *
 * @example
 * dot(Float32Array.of(1, 0), Float32Array.of(0.6, 0.8)); // 0.6
 */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] ?? 0) * (b[i] ?? 0);
  return s;
}

/**
 * The sum of the vectors, scaled to unit length (a zero sum stays zero).
 *
 * @example
 * normalisedSum([Float32Array.of(3, 0), Float32Array.of(0, 4)]); // [0.6, 0.8]
 */
export function normalisedSum(vectors: readonly ArrayLike<number>[]): Float32Array {
  const [first] = vectors;
  if (first === undefined) throw new RangeError('normalisedSum needs at least one vector');
  const out = new Float32Array(first.length);
  for (const v of vectors) for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) + (v[i] ?? 0);
  const norm = Math.sqrt(dot(out, out)) || 1;
  for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) / norm;
  return out;
}

/**
 * A unit-length copy of a vector (a zero vector stays zero).
 *
 * @example
 * unitVector(Float32Array.of(3, 4)); // [0.6, 0.8]
 */
export function unitVector(vector: ArrayLike<number>): Float32Array {
  return normalisedSum([vector]);
}

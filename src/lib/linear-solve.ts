/**
 * Solves A·x = b for a symmetric positive-definite A (m×m, row-major) by Cholesky decomposition
 * A = L·Lᵀ, then forward and back substitution.
 *
 * @example
 * solveSymmetricPositiveDefinite(Float64Array.of(4, 2, 2, 3), Float64Array.of(2, 1), 2); // [0.5, 0]
 * @throws {RangeError} when A is not positive definite
 */
export function solveSymmetricPositiveDefinite(a: Float64Array, b: Float64Array, m: number): Float64Array {
  const l = new Float64Array(m * m);
  for (let j = 0; j < m; j++) {
    let diagonal = a[j * m + j]!;
    for (let k = 0; k < j; k++) diagonal -= l[j * m + k]! ** 2;
    if (!(diagonal > 0)) throw new RangeError('matrix is not positive definite');
    const ljj = Math.sqrt(diagonal);
    l[j * m + j] = ljj;
    for (let i = j + 1; i < m; i++) {
      let s = a[i * m + j]!;
      for (let k = 0; k < j; k++) s -= l[i * m + k]! * l[j * m + k]!;
      l[i * m + j] = s / ljj;
    }
  }
  const z = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= l[i * m + k]! * z[k]!;
    z[i] = s / l[i * m + i]!;
  }
  const out = new Float64Array(m);
  for (let i = m - 1; i >= 0; i--) {
    let s = z[i]!;
    for (let k = i + 1; k < m; k++) s -= l[k * m + i]! * out[k]!;
    out[i] = s / l[i * m + i]!;
  }
  return out;
}

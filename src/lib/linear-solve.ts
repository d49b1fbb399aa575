/**
 * Solves A·x = b for a symmetric positive-definite A (m×m, row-major) by Cholesky decomposition
 * A = L·Lᵀ, then forward and back substitution.
 *
 * @example
 * solveSymmetricPositiveDefinite(Float64Array.of(4, 2, 2, 3), Float64Array.of(2, 1), 2); // [0.5, 0]
 * @throws {RangeError} when A is not positive definite, or A or b is not of size m
 */
export function solveSymmetricPositiveDefinite(a: Float64Array, b: Float64Array, m: number): Float64Array {
  // Every read below is then in bounds, so `?? 0` never fires.
  if (a.length !== m * m || b.length !== m) throw new RangeError(`expected a ${m}×${m} matrix and ${m} values`);
  const l = new Float64Array(m * m);
  for (let j = 0; j < m; j++) {
    let diagonal = a[j * m + j] ?? 0;
    for (let k = 0; k < j; k++) diagonal -= (l[j * m + k] ?? 0) ** 2;
    if (!(diagonal > 0)) throw new RangeError('matrix is not positive definite');
    const ljj = Math.sqrt(diagonal);
    l[j * m + j] = ljj;
    for (let i = j + 1; i < m; i++) {
      let s = a[i * m + j] ?? 0;
      for (let k = 0; k < j; k++) s -= (l[i * m + k] ?? 0) * (l[j * m + k] ?? 0);
      l[i * m + j] = s / ljj;
    }
  }
  const z = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    let s = b[i] ?? 0;
    for (let k = 0; k < i; k++) s -= (l[i * m + k] ?? 0) * (z[k] ?? 0);
    z[i] = s / (l[i * m + i] ?? 0);
  }
  const out = new Float64Array(m);
  for (let i = m - 1; i >= 0; i--) {
    let s = z[i] ?? 0;
    for (let k = i + 1; k < m; k++) s -= (l[k * m + i] ?? 0) * (out[k] ?? 0);
    out[i] = s / (l[i * m + i] ?? 0);
  }
  return out;
}

/**
 * The DCT-II that turns a frame's log filterbank energies into cepstra, shared by the MFCC (speaker) and LFCC
 * (spoof) front ends. The matrix keeps the element type its caller was trained with (MFCC: float32, LFCC:
 * float64), so moving the code here changed no value.
 */

type DctArray = Float32Array | Float64Array;

const cache = new Map<string, DctArray>();

/**
 * Orthonormal DCT-II rows 0..coefficients-1 for `inputs` values, row-major (`matrix[c * inputs + m]`), cached.
 *
 * @example
 * const dct = orthonormalDct(40, 20, Float32Array); // 20 cepstra of 40 mel energies
 */
export function orthonormalDct<T extends DctArray>(
  inputs: number,
  coefficients: number,
  type: { new (length: number): T; readonly name: string },
): T {
  const key = `${type.name}/${inputs}/${coefficients}`;
  const cached = cache.get(key);
  if (cached instanceof type) return cached;
  const matrix = new type(coefficients * inputs);
  for (let c = 0; c < coefficients; c++) {
    const scale = Math.sqrt((c === 0 ? 1 : 2) / inputs);
    for (let m = 0; m < inputs; m++) matrix[c * inputs + m] = scale * Math.cos((Math.PI * c * (m + 0.5)) / inputs);
  }
  cache.set(key, matrix);
  return matrix;
}

/**
 * Writes the `coefficients` cepstra of one frame's log energies to `out` from `offset`: two cepstra at a time,
 * each summed in its own variable in the inputs' order (the same value to the bit as one at a time).
 *
 * @example
 * cepstraInto(logMel, orthonormalDct(40, 20, Float32Array), 20, values, frame * 20);
 */
export function cepstraInto(
  logEnergy: ArrayLike<number>,
  dct: DctArray,
  coefficients: number,
  out: Float32Array | Float64Array,
  offset: number,
): void {
  const inputs = logEnergy.length;
  let c = 0;
  for (; c + 1 < coefficients; c += 2) {
    let sum0 = 0;
    let sum1 = 0;
    const row0 = c * inputs;
    const row1 = row0 + inputs;
    for (let m = 0; m < inputs; m++) {
      const x = logEnergy[m] ?? 0;
      sum0 += (dct[row0 + m] ?? 0) * x;
      sum1 += (dct[row1 + m] ?? 0) * x;
    }
    out[offset + c] = sum0;
    out[offset + c + 1] = sum1;
  }
  for (; c < coefficients; c++) {
    let sum = 0;
    for (let m = 0; m < inputs; m++) sum += (dct[c * inputs + m] ?? 0) * (logEnergy[m] ?? 0);
    out[offset + c] = sum;
  }
}

/**
 * The logistic function 1 / (1 + e^−z), written so that neither branch overflows.
 *
 * @example
 * sigmoid(0); // 0.5
 */
export function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

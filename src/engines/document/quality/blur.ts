import type { GrayImage } from '../gray-image.js';
import { checkOf, type QualityCheck } from './check-value.js';

/**
 * Lowest edge sharpness for a PASS, in 1/px of the 48 px line crops: Gaussian blur sweeps of rendered
 * documents stop reading below it (docs/documents.md, "Quality").
 */
export const MIN_EDGE_SHARPNESS = 0.13;

/**
 * The band's edge sharpness: the 95th percentile of the gradient magnitude over the line crops (all at
 * the recogniser's 48 px height, so the measure is relative to the character size), divided by the
 * crops' ink-to-paper range (2nd to 98th percentile). About 1/edge width: 0.3–0.5 for print read sharp,
 * falling as blur widens the edges; lighting and contrast cancel out.
 *
 * @example
 * edgeSharpness(lineImages); // 0.41
 */
export function edgeSharpness(lines: readonly GrayImage[]): number | null {
  const gradients: number[] = [];
  const values: number[] = [];
  for (const line of lines) {
    const { data, width, height } = line;
    for (let y = 1; y < height - 1; y++) {
      for (let x = 1; x < width - 1; x++) {
        const i = y * width + x;
        const gx = ((data[i + 1] ?? 0) - (data[i - 1] ?? 0)) / 2;
        const gy = ((data[i + width] ?? 0) - (data[i - width] ?? 0)) / 2;
        gradients.push(Math.hypot(gx, gy));
        values.push(data[i] ?? 0);
      }
    }
  }
  if (gradients.length === 0) return null;
  const range = percentile(values, 0.98) - percentile(values, 0.02);
  if (range < 8) return 0;
  return percentile(gradients, 0.95) / range;
}

/**
 * Blur: the band's edge sharpness against MIN_EDGE_SHARPNESS.
 *
 * @example
 * blurCheck(lineImages).result; // 'PASS'
 */
export function blurCheck(lines: readonly GrayImage[] | null): QualityCheck {
  return checkOf(lines ? edgeSharpness(lines) : null, '1/px', '>=', MIN_EDGE_SHARPNESS);
}

function percentile(values: number[], q: number): number {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

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
  // Exact percentiles from histograms (values are 0–255, squared gradients 4·|∇|² integers up to
  // 2·255²): the same result as sorting, without a million-element sort per frame.
  const squared = new Uint32Array(2 * 255 * 255 + 1);
  const values = new Uint32Array(256);
  let count = 0;
  for (const line of lines) {
    const { data, width, height } = line;
    for (let y = 1; y < height - 1; y++) {
      for (let x = 1; x < width - 1; x++) {
        const i = y * width + x;
        const dx = (data[i + 1] ?? 0) - (data[i - 1] ?? 0);
        const dy = (data[i + width] ?? 0) - (data[i - width] ?? 0);
        const s = dx * dx + dy * dy;
        squared[s] = (squared[s] ?? 0) + 1;
        const v = data[i] ?? 0;
        values[v] = (values[v] ?? 0) + 1;
        count++;
      }
    }
  }
  if (count === 0) return null;
  const range = percentileOf(values, count, 0.98) - percentileOf(values, count, 0.02);
  if (range < 8) return 0;
  // |∇| = √(dx² + dy²) / 2 with central differences.
  return Math.sqrt(percentileOf(squared, count, 0.95) / 4) / range;
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

/** The value at index ⌊q·count⌋ of the sorted values a histogram counts. */
function percentileOf(histogram: Uint32Array, count: number, q: number): number {
  const index = Math.min(count - 1, Math.floor(q * count));
  let seen = 0;
  for (let v = 0; v < histogram.length; v++) {
    seen += histogram[v] ?? 0;
    if (seen > index) return v;
  }
  return histogram.length - 1;
}

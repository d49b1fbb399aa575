import type { GrayImage } from './gray-image.js';

/** Width and height of a normalised cell, the OCR-B classifier's input. */
export const CELL_WIDTH = 16;
export const CELL_HEIGHT = 24;

/** A line cut into its fixed-pitch cells. */
export interface LineCells {
  /** Left edge of the first cell and the pitch, in line-image pixels. */
  readonly offset: number;
  readonly pitch: number;
  /** Text rows (ink extent) the cells span. */
  readonly top: number;
  readonly bottom: number;
  /** Per cell, CELL_WIDTH × CELL_HEIGHT values in [0, 1], 1 = ink. */
  readonly cells: readonly Float32Array[];
  /** Ink crossed by the cell boundaries, per boundary, as a share of the text height: 0 = clean gaps. */
  readonly boundaryInk: number;
}

/**
 * Cuts an MRZ line image (mrz-line-images.ts: upright, text across its width) into `count` cells of equal
 * pitch and normalises each to CELL_WIDTH × CELL_HEIGHT. MRZ text is monospaced OCR-B, so a line of a known
 * length is a grid: ink is split from paper at the midpoint of the line's dark and light levels, the text
 * rows are where rows hold ink, and the pitch and offset are those whose boundaries cross the least ink
 * (searched around the ink extent / count). Each cell is then re-centred on its own ink (OCR-B glyphs sit
 * centred in their cells), within a quarter pitch, which absorbs a slightly wrong pitch or skew.
 * Null when the line holds too little ink for `count` characters.
 *
 * @example
 * const cut = segmentLine(lineImage, 44);
 * cut?.cells.length; // 44
 */
export function segmentLine(line: GrayImage, count: number): LineCells | null {
  const { width, height, data } = line;
  if (count < 1 || width < count * 3) return null;
  const { ink: inkLevel, paper } = levels(data);
  if (paper - inkLevel < 24) return null;
  const threshold = (inkLevel + paper) / 2;
  const rows = new Float64Array(height);
  const columns = new Float64Array(width);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) if ((data[y * width + x] ?? 255) < threshold) rows[y] = (rows[y] ?? 0) + 1;
  }
  const rowMax = Math.max(...rows);
  if (rowMax < count) return null;
  // The text rows: the longest run of rows holding at least a fifth of the busiest row's ink.
  let top = 0;
  let bottom = -1;
  for (let y = 0, start = -1; y <= height; y++) {
    const busy = y < height && (rows[y] ?? 0) >= rowMax / 5;
    if (busy && start < 0) start = y;
    if (!busy && start >= 0) {
      if (y - 1 - start > bottom - top) [top, bottom] = [start, y - 1];
      start = -1;
    }
  }
  if (bottom - top < 4) return null;
  for (let y = top; y <= bottom; y++) {
    for (let x = 0; x < width; x++) if ((data[y * width + x] ?? 255) < threshold) columns[x] = (columns[x] ?? 0) + 1;
  }
  // Ink extent: columns with at least two ink pixels, ignoring specks narrower than 2 columns at the ends.
  const inked = (x: number) => (columns[x] ?? 0) >= 2;
  let left = 0;
  while (left < width - 1 && !(inked(left) && inked(left + 1))) left++;
  let right = width - 1;
  while (right > 0 && !(inked(right) && inked(right - 1))) right--;
  const extent = right - left + 1;
  if (extent < count * 3) return null;
  // The first glyph's left bearing and the last's right bearing make the extent short of count pitches.
  let best = { score: Infinity, pitch: extent / count, offset: left };
  const columnHeight = bottom - top + 1;
  for (let pitch = extent / (count + 0.3); pitch <= extent / (count - 0.9); pitch += 0.05) {
    for (let offset = left - 0.5 * pitch; offset <= left + 0.1 * pitch; offset += 0.25) {
      let score = 0;
      for (let k = 0; k <= count; k++) score += sampleAt(columns, offset + k * pitch);
      if (score < best.score) best = { score, pitch, offset };
    }
  }
  const { pitch, offset } = best;
  const cells: Float32Array[] = [];
  const scale = 1 / (paper - inkLevel);
  for (let k = 0; k < count; k++) {
    let x0 = offset + k * pitch;
    // Re-centre on the cell's ink (weighted by darkness), within a quarter pitch.
    let mass = 0;
    let moment = 0;
    for (let x = Math.max(0, Math.floor(x0)); x < Math.min(width, Math.ceil(x0 + pitch)); x++) {
      const v = columns[x] ?? 0;
      mass += v;
      moment += v * (x + 0.5);
    }
    if (mass > columnHeight) {
      const shift = moment / mass - (x0 + pitch / 2);
      x0 += Math.max(-pitch / 4, Math.min(pitch / 4, shift));
    }
    cells.push(cellImage(line, x0, top - 1, pitch, bottom - top + 3, paper, scale));
  }
  return {
    offset,
    pitch,
    top,
    bottom,
    cells,
    boundaryInk: best.score / ((count + 1) * columnHeight),
  };
}

/** Dark and light levels of a line: the 5th and 95th percentiles of its pixels. */
function levels(data: Uint8Array): { ink: number; paper: number } {
  const histogram = new Uint32Array(256);
  for (const v of data) histogram[v] = (histogram[v] ?? 0) + 1;
  const at = (share: number) => {
    let seen = 0;
    for (let v = 0; v < 256; v++) {
      seen += histogram[v] ?? 0;
      if (seen >= share * data.length) return v;
    }
    return 255;
  };
  return { ink: at(0.05), paper: at(0.95) };
}

/** The profile linearly interpolated at x (0 outside). */
function sampleAt(profile: Float64Array, x: number): number {
  const x0 = Math.floor(x);
  const w = x - x0;
  return (profile[x0] ?? 0) * (1 - w) + (profile[x0 + 1] ?? 0) * w;
}

/** A box of the line resampled (bilinear, area-averaged across the pitch) to a cell, ink 1, paper 0. */
function cellImage(
  line: GrayImage,
  x0: number,
  y0: number,
  w: number,
  h: number,
  paper: number,
  scale: number,
): Float32Array {
  const out = new Float32Array(CELL_WIDTH * CELL_HEIGHT);
  const sx = w / CELL_WIDTH;
  const sy = h / CELL_HEIGHT;
  // Several samples per output pixel when shrinking, so thin strokes are not skipped.
  const nx = Math.max(1, Math.ceil(sx));
  const ny = Math.max(1, Math.ceil(sy));
  for (let cy = 0; cy < CELL_HEIGHT; cy++) {
    for (let cx = 0; cx < CELL_WIDTH; cx++) {
      let sum = 0;
      for (let j = 0; j < ny; j++) {
        for (let i = 0; i < nx; i++) {
          sum += bilinear(line, x0 + (cx + (i + 0.5) / nx) * sx - 0.5, y0 + (cy + (j + 0.5) / ny) * sy - 0.5);
        }
      }
      const v = (paper - sum / (nx * ny)) * scale;
      out[cy * CELL_WIDTH + cx] = v < 0 ? 0 : v > 1 ? 1 : v;
    }
  }
  return out;
}

function bilinear(image: GrayImage, x: number, y: number): number {
  const fx = Math.min(Math.max(x, 0), image.width - 1);
  const fy = Math.min(Math.max(y, 0), image.height - 1);
  const x0 = Math.floor(fx);
  const y0 = Math.floor(fy);
  const x1 = Math.min(x0 + 1, image.width - 1);
  const y1 = Math.min(y0 + 1, image.height - 1);
  const wx = fx - x0;
  const wy = fy - y0;
  const d = image.data;
  const w = image.width;
  const a = d[y0 * w + x0] ?? 255;
  const b = d[y0 * w + x1] ?? 255;
  const c = d[y1 * w + x0] ?? 255;
  const e = d[y1 * w + x1] ?? 255;
  return (a * (1 - wx) + b * wx) * (1 - wy) + (c * (1 - wx) + e * wx) * wy;
}

/**
 * Presentation-attack detection (PAD) features of one face: hand-written texture, frequency, colour,
 * specular and sharpness measurements on the face region only, so that a classifier reads the face
 * rather than the room around it.
 *
 * The face is first resampled to a fixed 128×128 eye-aligned crop (the face plus a small margin; see
 * PAD_CROP_GEOMETRY), with area averaging when the face is larger than the crop so that every image is
 * measured at the same scale without aliasing. Every function here is deterministic (no randomness, no
 * floating-point reductions whose order depends on anything but the input).
 *
 * Why these features: a recaptured face (a print, a screen or a paper mask photographed again) passes
 * twice through an imaging chain. That loses fine skin texture (the print or screen resolution and the
 * second camera's optics low-pass it), adds periodic structure (a screen's pixel grid and the moiré it
 * beats into with the camera's sensor, a print's halftone dots), narrows and shifts the colour gamut
 * (printer inks and screen primaries cannot reproduce skin tones exactly) and adds flat specular
 * reflections of the room lights on glossy paper or glass.
 */
import {
  areaSupersampling,
  cropTransform,
  sampleCrop,
  type CropGeometry,
  type CropTransform,
  type FaceKeyPoints,
} from '../face/face-alignment.js';
import type { RgbImage } from '../face/raster.js';
import { fft2d } from '../../lib/fft.js';
import { median } from '../../lib/median.js';
import { roundTo } from '../../lib/rounding.js';

/** Bumped whenever a feature's definition changes: a model is only valid for the version it was trained on. */
export const PAD_FEATURE_VERSION = 'pad-features/1';

/** Side of the square face crop the features are measured on (a power of two, for the FFT). */
export const PAD_CROP_SIZE = 128;

/**
 * The face crop: eyes always levelled (texture statistics should not depend on head roll), their
 * midpoint at (0.5, 0.35) of the side and the mouth 0.34 of the side below them. That holds the face
 * from the brows to the chin with ~15% margin left and right, and very little background (the
 * background carries the capture room, which a classifier must not learn).
 */
export const PAD_CROP_GEOMETRY: CropGeometry = { eyeY: 0.35, eyeToMouth: 0.34, levelAboveDegrees: 0 };

/** The part of a detected face the features need (a FaceObservation has both). */
export interface PadFace {
  /** [x, y, width, height] in image pixels: the fallback framing when the key points are degenerate. */
  readonly box: readonly [number, number, number, number];
  readonly keyPoints: FaceKeyPoints;
}

/**
 * Named sub-scores for typing an attack (e.g. SCREEN vs PHOTO), each a plain physical measurement
 * of the face crop, not a probability.
 */
export interface PadSignals {
  /**
   * log10 of the strength of isolated periodic peaks in the luma spectrum relative to their ring (≈1.0–1.3
   * for natural faces; a pixel grid or halftone raises it).
   */
  readonly moire: number;
  /** The same on the chroma (Cb, Cr) spectrum: screens' RGB sub-pixels beat into coloured moiré. */
  readonly chromaMoire: number;
  /** Share (0..1) of the luma spectral energy at ≥ 0.25 cycles/pixel of the 128-px crop: fine texture. */
  readonly highFrequencyEnergy: number;
  /** sqrt(var Cb + var Cr) over the crop, in 8-bit units: how much the skin's chroma varies. */
  readonly chromaSpread: number;
  /** Share (0..1) of the crop's pixels that are near-white and unsaturated: specular glare. */
  readonly specular: number;
  /** log10(1 + variance of the Laplacian of the luma crop): sharpness at the normalised face size. */
  readonly sharpness: number;
}

export interface PadAnalysis {
  readonly features: Float32Array;
  readonly signals: PadSignals;
}

const LBP_BINS = 10;
/** Lowest frequency (cycles/pixel) the band shares count: below it lies the face's overall shading. */
const MIN_BAND_FREQUENCY = 2 / 128;
const FREQUENCY_BANDS: readonly (readonly [number, number])[] = [
  [MIN_BAND_FREQUENCY, 1 / 16],
  [1 / 16, 1 / 8],
  [1 / 8, 1 / 4],
  [1 / 4, Math.SQRT1_2 + 1e-9],
];

function lbpNames(prefix: string): string[] {
  return Array.from({ length: LBP_BINS }, (_, i) => `${prefix}.${i === LBP_BINS - 1 ? 'nonuniform' : `u${i}`}`);
}

/** Feature names, in the order of `padFeatures`' output; the part before the first dot is the group. */
export const PAD_FEATURE_NAMES: readonly string[] = [
  ...lbpNames('lbpLuma.r1'),
  ...lbpNames('lbpLuma.r2'),
  ...lbpNames('lbpChroma.cb'),
  ...lbpNames('lbpChroma.cr'),
  'frequency.band0',
  'frequency.band1',
  'frequency.band2',
  'frequency.band3',
  'frequency.slope',
  'frequency.moire',
  'frequency.chromaMoire',
  'sharpness.laplacian',
  'sharpness.fineToCoarse',
  'colour.cbMean',
  'colour.crMean',
  'colour.cbStd',
  'colour.crStd',
  'colour.satMean',
  'colour.satStd',
  'colour.hueSpread',
  'colour.lumaContrast',
  'colour.lumaSkew',
  'specular.clipped',
  'specular.white',
  'specular.dark',
  'specular.highlightRange',
];

/** The feature groups and the indices of their features, in first-appearance order. */
export function padFeatureGroups(names: readonly string[] = PAD_FEATURE_NAMES): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  names.forEach((name, i) => {
    const [group = name] = name.split('.');
    const members = groups.get(group) ?? [];
    members.push(i);
    groups.set(group, members);
  });
  return groups;
}

/**
 * The PAD feature vector of one face (length PAD_FEATURE_NAMES.length).
 *
 * @example
 * const face = selectSubjectFace(analysis.faces, analysis);
 * if (face.ok) padScore(padFeatures(image, face.face));
 */
export function padFeatures(image: RgbImage, face: PadFace): Float32Array {
  return padAnalysis(image, face).features;
}

/** The named sub-scores (moiré, high-frequency energy, chroma spread, specular share, sharpness) of one face. */
export function padSignals(image: RgbImage, face: PadFace): PadSignals {
  return padAnalysis(image, face).signals;
}

/** Features and signals of one face from a single pass over its crop. */
export function padAnalysis(image: RgbImage, face: PadFace): PadAnalysis {
  return analyzeCrop(padCrop(image, face), PAD_CROP_SIZE);
}

/**
 * The normalised face crop (PAD_CROP_SIZE², float RGB 0..255, row by row). Eye-aligned from the key
 * points; from the box when the key points are degenerate (eye-to-mouth distance under 10% of the box).
 */
export function padCrop(image: RgbImage, face: PadFace): Float32Array {
  const size = PAD_CROP_SIZE;
  const { rightEye, leftEye, mouth } = face.keyPoints;
  const eyeToMouth = Math.hypot(mouth[0] - (rightEye[0] + leftEye[0]) / 2, mouth[1] - (rightEye[1] + leftEye[1]) / 2);
  const [bx, by, bw, bh] = face.box;
  const transform: CropTransform =
    Number.isFinite(eyeToMouth) && eyeToMouth >= 0.1 * Math.max(bw, bh, 1)
      ? cropTransform(face.keyPoints, size, PAD_CROP_GEOMETRY)
      : {
          size,
          a: Math.max(bw, bh, 1) / size,
          b: 0,
          tx: bx + bw / 2 - Math.max(bw, bh, 1) / 2,
          ty: by + bh / 2 - Math.max(bw, bh, 1) / 2,
        };
  // A large face is averaged down, so its fine texture does not alias into false high frequencies or moiré.
  return sampleCrop(image, transform, false, areaSupersampling(transform));
}

/**
 * Features and signals of a ready crop (size×size float RGB 0..255; size a power of two ≥ 16), for
 * callers and tests that hold the crop already.
 */
export function analyzeCrop(crop: Float32Array, size: number): PadAnalysis {
  checkCrop(crop, size);
  const planes = colourPlanes(crop, size);
  const lumaSpectrum = powerSpectrum(planes.y, size);
  const chromaSpectrum = addArrays(powerSpectrum(planes.cb, size), powerSpectrum(planes.cr, size));
  const bands = bandShares(lumaSpectrum, size);
  const moire = periodicPeakStrength(lumaSpectrum, size);
  const chromaMoire = periodicPeakStrength(chromaSpectrum, size);
  const sharp = laplacianSharpness(planes.y, size);
  const colour = colourMoments(planes);
  const specular = specularStatistics(planes);

  const features = new Float32Array(PAD_FEATURE_NAMES.length);
  let at = 0;
  const put = (values: Iterable<number>): void => {
    for (const value of values) features[at++] = value;
  };
  put(uniformLbpHistogram(planes.y, size, 1));
  put(uniformLbpHistogram(planes.y, size, 2));
  put(uniformLbpHistogram(planes.cb, size, 1));
  put(uniformLbpHistogram(planes.cr, size, 1));
  put(bands.map((share) => Math.log10(share + 1e-6)));
  put([spectralSlope(lumaSpectrum, size), moire, chromaMoire]);
  put([sharp.laplacian, sharp.fineToCoarse]);
  put([
    colour.cbMean,
    colour.crMean,
    colour.cbStd,
    colour.crStd,
    colour.satMean,
    colour.satStd,
    colour.hueSpread,
    colour.lumaContrast,
    colour.lumaSkew,
  ]);
  // Shares of rare pixels are heavy-tailed (mostly ~0, sometimes 0.2): the square root evens them out for a
  // linear model.
  put([Math.sqrt(specular.clipped), Math.sqrt(specular.white), Math.sqrt(specular.dark), specular.highlightRange]);
  if (at !== features.length) throw new Error(`PAD feature count mismatch: wrote ${at}, named ${features.length}`);

  return {
    features,
    signals: {
      moire,
      chromaMoire,
      highFrequencyEnergy: bands[FREQUENCY_BANDS.length - 1] ?? 0,
      chromaSpread: Math.hypot(colour.cbStd, colour.crStd),
      specular: specular.white,
      sharpness: sharp.laplacian,
    },
  };
}

/**
 * The sharpness signal of a ready crop alone (`analyzeCrop(crop, size).signals.sharpness`, the same value to
 * the bit): what the blur gate reads when the ONNX model decides and the other features are not needed.
 *
 * @example
 * const sharpness = cropSharpness(padCrop(image, face), PAD_CROP_SIZE); // e.g. 2.3
 * @throws {RangeError} when the crop is not size×size×3 with size a power of two ≥ 16
 */
export function cropSharpness(crop: Float32Array, size: number): number {
  checkCrop(crop, size);
  const n = size * size;
  const y = new Float64Array(n);
  // The luma exactly as colourPlanes computes it (same expression, same order).
  for (let i = 0; i < n; i++)
    y[i] = 0.299 * (crop[i * 3] ?? 0) + 0.587 * (crop[i * 3 + 1] ?? 0) + 0.114 * (crop[i * 3 + 2] ?? 0);
  return Math.log10(1 + laplacianVariance(y, size));
}

function checkCrop(crop: Float32Array, size: number): void {
  if (crop.length !== size * size * 3 || size < 16 || (size & (size - 1)) !== 0) {
    throw new RangeError(
      `a PAD crop must be size×size×3 with size a power of two ≥ 16 (got ${crop.length} values, size ${size})`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Colour planes

interface Planes {
  /** Luma (BT.601), 0..255. */
  readonly y: Float64Array;
  /** Chroma (BT.601 full range, 128 = neutral). */
  readonly cb: Float64Array;
  readonly cr: Float64Array;
  /** HSV saturation 0..1, value 0..1, hue in radians. */
  readonly s: Float64Array;
  readonly v: Float64Array;
  readonly h: Float64Array;
}

function colourPlanes(crop: Float32Array, size: number): Planes {
  const n = size * size;
  const planes: Planes = {
    y: new Float64Array(n),
    cb: new Float64Array(n),
    cr: new Float64Array(n),
    s: new Float64Array(n),
    v: new Float64Array(n),
    h: new Float64Array(n),
  };
  for (let i = 0; i < n; i++) {
    // In bounds: analyzeCrop checked the crop's length (so are the typed-array reads below).
    const r = crop[i * 3] ?? 0;
    const g = crop[i * 3 + 1] ?? 0;
    const b = crop[i * 3 + 2] ?? 0;
    planes.y[i] = 0.299 * r + 0.587 * g + 0.114 * b;
    planes.cb[i] = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b;
    planes.cr[i] = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b;
    const max = Math.max(r, g, b);
    const min = Math.min(r, g, b);
    const delta = max - min;
    planes.v[i] = max / 255;
    planes.s[i] = max > 0 ? delta / max : 0;
    let hue = 0;
    if (delta > 0) {
      if (max === r) hue = ((g - b) / delta) % 6;
      else if (max === g) hue = (b - r) / delta + 2;
      else hue = (r - g) / delta + 4;
    }
    planes.h[i] = (hue * Math.PI) / 3;
  }
  return planes;
}

// ---------------------------------------------------------------------------------------------
// Texture: local binary patterns

/**
 * Rotation-invariant uniform LBP histogram (LBP^riu2, 8 neighbours on a circle of `radius`, bilinear
 * between pixels; Ojala et al. 2002): bins 0..8 count the uniform patterns by their number of brighter
 * neighbours, bin 9 all non-uniform ones; normalised to sum 1. Why it discriminates: a live face's
 * skin gives a characteristic mix of spots, edges and flat patches at 1–2 px; a recaptured face has
 * lost part of that micro-texture (more flat patterns) or gained print/screen structure (more edge and
 * non-uniform patterns). On the chroma planes it measures colour texture, which recapture changes even
 * when luma texture survives (Boulkenafet et al., "Face anti-spoofing based on color texture", 2015).
 */
function uniformLbpHistogram(plane: Float64Array, size: number, radius: number): Float64Array {
  // Neighbour offsets, rounded to 1e-9 so that cos(π/2) etc. are exactly 0 and axis neighbours are read
  // without interpolation.
  const offsetX = Float64Array.from({ length: 8 }, (_, p) => roundTo(radius * Math.cos((2 * Math.PI * p) / 8), 9));
  const offsetY = Float64Array.from({ length: 8 }, (_, p) => roundTo(-radius * Math.sin((2 * Math.PI * p) / 8), 9));
  const histogram = new Float64Array(LBP_BINS);
  const margin = Math.ceil(radius);
  // Each neighbour's bilinear read, per column and per row: the clamped cells and the fractions exactly as
  // a per-pixel bilinear read computes them (fx from x + offset, so the values are bit-identical).
  const columns = bilinearAxis(offsetX, size);
  const rows = bilinearAxis(offsetY, size);
  const bins = lbpBins();
  for (let y = margin; y < size - margin; y++) {
    for (let x = margin; x < size - margin; x++) {
      const centre = plane[y * size + x] ?? 0;
      let code = 0;
      for (let p = 0; p < 8; p++) {
        const cx = p * size + x;
        const cy = p * size + y;
        const fx = columns.fraction[cx] ?? 0;
        const fy = rows.fraction[cy] ?? 0;
        const ya = (rows.low[cy] ?? 0) * size;
        const xa = columns.low[cx] ?? 0;
        let value: number;
        if (fx === 0 && fy === 0) value = plane[ya + xa] ?? 0;
        else {
          const yb = (rows.high[cy] ?? 0) * size;
          const xb = columns.high[cx] ?? 0;
          const top = (plane[ya + xa] ?? 0) * (1 - fx) + (plane[ya + xb] ?? 0) * fx;
          const bottom = (plane[yb + xa] ?? 0) * (1 - fx) + (plane[yb + xb] ?? 0) * fx;
          value = top * (1 - fy) + bottom * fy;
        }
        if (value >= centre) code |= 1 << p;
      }
      const bin = bins[code] ?? LBP_BINS - 1;
      histogram[bin] = (histogram[bin] ?? 0) + 1;
    }
  }
  const total = (size - 2 * margin) ** 2;
  for (let i = 0; i < LBP_BINS; i++) histogram[i] = (histogram[i] ?? 0) / total;
  return histogram;
}

/**
 * For each of 8 offsets and each coordinate c of an axis of `size` pixels, the bilinear read of c + offset:
 * the lower and upper cells (edge pixels repeated outside) and the fraction, at [p·size + c].
 */
function bilinearAxis(
  offsets: Float64Array,
  size: number,
): { low: Int32Array; high: Int32Array; fraction: Float64Array } {
  const low = new Int32Array(8 * size);
  const high = new Int32Array(8 * size);
  const fraction = new Float64Array(8 * size);
  const last = size - 1;
  for (let p = 0; p < 8; p++) {
    for (let c = 0; c < size; c++) {
      const at = c + (offsets[p] ?? 0);
      const c0 = Math.floor(at);
      low[p * size + c] = c0 < 0 ? 0 : c0 > last ? last : c0;
      high[p * size + c] = c0 + 1 < 0 ? 0 : c0 + 1 > last ? last : c0 + 1;
      fraction[p * size + c] = at - c0;
    }
  }
  return { low, high, fraction };
}

let lbpBinTable: Uint8Array | undefined;

/**
 * The histogram bin of each 8-bit LBP code (bit p: neighbour p ≥ centre): its count of ones when the circular
 * pattern is uniform (at most 2 transitions), else the non-uniform bin.
 */
function lbpBins(): Uint8Array {
  if (lbpBinTable) return lbpBinTable;
  const table = new Uint8Array(256);
  for (let code = 0; code < 256; code++) {
    let ones = 0;
    let transitions = 0;
    for (let p = 0; p < 8; p++) {
      const bit = (code >> p) & 1;
      const next = (code >> ((p + 1) % 8)) & 1;
      ones += bit;
      if (bit !== next) transitions++;
    }
    table[code] = transitions <= 2 ? ones : LBP_BINS - 1;
  }
  lbpBinTable = table;
  return table;
}

// ---------------------------------------------------------------------------------------------
// Frequency: power spectrum, band energies, spectral slope, periodic peaks

/**
 * Power spectrum |F|² of a plane (mean removed, 2-D Hann window against edge leakage), size×size,
 * in FFT order (index 0 = DC; index i ≥ size/2 is frequency i − size).
 */
function powerSpectrum(plane: Float64Array, size: number): Float64Array {
  const n = size * size;
  let mean = 0;
  for (const value of plane) mean += value;
  mean /= n;
  const window = new Float64Array(size);
  for (let i = 0; i < size; i++) window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * (i + 0.5)) / size);
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++)
      re[y * size + x] = ((plane[y * size + x] ?? 0) - mean) * (window[x] ?? 0) * (window[y] ?? 0);
  fft2d(re, im, size);
  const power = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const r = re[i] ?? 0;
    const m = im[i] ?? 0;
    power[i] = (r * r + m * m) / n;
  }
  return power;
}

/** Signed frequency of FFT index i, in cycles per pixel. */
function frequencyOf(i: number, size: number): number {
  return (i < size / 2 ? i : i - size) / size;
}

/**
 * Share of the spectral energy (above 2 cycles per crop) in each of FREQUENCY_BANDS. Why it
 * discriminates: recapture low-passes the face twice (print or screen resolution, then the second
 * camera), so a spoof crop holds less of its energy in the top band (≥ 0.25 cycles/pixel at the
 * normalised face size) than a live one shot at the same framing.
 */
function bandShares(power: Float64Array, size: number): Float64Array {
  const { band } = spectrumGeometry(size);
  const sums = new Float64Array(FREQUENCY_BANDS.length);
  let total = 0;
  for (let i = 0; i < size * size; i++) {
    const b = band[i] ?? -1;
    if (b < 0) continue;
    const p = power[i] ?? 0;
    total += p;
    if (b < FREQUENCY_BANDS.length) sums[b] = (sums[b] ?? 0) + p;
  }
  return sums.map((s) => (total > 0 ? s / total : 0));
}

/** Mean power of each integer radius ring (radius in FFT bins, 0..size/2). */
function ringMeans(power: Float64Array, size: number): Float64Array {
  const half = size / 2;
  const { ring } = spectrumGeometry(size);
  const sums = new Float64Array(half + 1);
  const counts = new Float64Array(half + 1);
  for (let i = 0; i < size * size; i++) {
    const k = ring[i] ?? 0;
    if (k > half) continue;
    sums[k] = (sums[k] ?? 0) + (power[i] ?? 0);
    counts[k] = (counts[k] ?? 0) + 1;
  }
  return sums.map((s, k) => {
    const count = counts[k] ?? 0;
    return count > 0 ? s / count : 0;
  });
}

/** Per FFT bin of a size×size spectrum, what the spectral measures group it by (depends on the size alone). */
interface SpectrumGeometry {
  /** The FREQUENCY_BANDS index of the bin's radius, FREQUENCY_BANDS.length for none, -1 below MIN_BAND_FREQUENCY. */
  readonly band: Int8Array;
  /** The bin's radius in FFT bins, rounded. */
  readonly ring: Int32Array;
  /** The ring periodicPeakStrength compares the bin with; -1 for bins it leaves out. */
  readonly peakRing: Int32Array;
  /** How many bins each peak ring holds. */
  readonly peakRingSizes: Int32Array;
}

const geometries = new Map<number, SpectrumGeometry>();

function spectrumGeometry(size: number): SpectrumGeometry {
  const known = geometries.get(size);
  if (known) return known;
  const n = size * size;
  const band = new Int8Array(n);
  const ring = new Int32Array(n);
  const peakRing = new Int32Array(n).fill(-1);
  const maxRing = Math.ceil((size / 2) * Math.SQRT2);
  const peakRingSizes = new Int32Array(maxRing + 1);
  for (let v = 0; v < size; v++) {
    const fv = frequencyOf(v, size);
    for (let u = 0; u < size; u++) {
      const i = v * size + u;
      const r = Math.hypot(frequencyOf(u, size), fv);
      let b = r < MIN_BAND_FREQUENCY ? -1 : FREQUENCY_BANDS.length;
      for (let k = 0; b >= 0 && k < FREQUENCY_BANDS.length; k++) {
        const range = FREQUENCY_BANDS[k];
        if (range && r >= range[0] && r < range[1]) b = k;
      }
      band[i] = b;
      const fu = frequencyOf(u, size) * size;
      const fvBins = fv * size;
      ring[i] = Math.round(Math.hypot(fu, fvBins));
      if (Math.abs(fu) <= 2 || Math.abs(fvBins) <= 2) continue;
      const k = Math.round(Math.hypot(fu, fvBins));
      if (k < size / 16) continue;
      if (k > maxRing) throw new RangeError(`ring ${k} lies beyond the spectrum's corner ring ${maxRing}`);
      peakRing[i] = k;
      peakRingSizes[k] = (peakRingSizes[k] ?? 0) + 1;
    }
  }
  const geometry = { band, ring, peakRing, peakRingSizes };
  geometries.set(size, geometry);
  return geometry;
}

/**
 * Slope of log ring power against log frequency between 3 and 60 cycles per crop (least squares).
 * Natural images fall off as ~1/f² (slope ≈ −2); double low-passing by recapture steepens the fall at
 * high frequencies, while a pixel grid or sensor noise flattens it.
 */
function spectralSlope(power: Float64Array, size: number): number {
  const rings = ringMeans(power, size);
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let sxy = 0;
  let n = 0;
  const top = Math.min(60, size / 2 - 1);
  for (let k = 3; k <= top; k++) {
    const x = Math.log(k);
    const y = Math.log((rings[k] ?? 0) + 1e-12);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
    n++;
  }
  const denominator = n * sxx - sx * sx;
  return denominator > 0 ? (n * sxy - sx * sy) / denominator : 0;
}

/**
 * Strength of isolated periodic peaks: log10 of the mean of the 8 largest ratios between a spectral
 * bin's power and the median power of its radius ring, over bins from 1/16 cycle/pixel up to the
 * corners, leaving out the two bins nearest each axis (where edges and the face outline put a cross
 * of energy). Why it discriminates: a natural face's spectrum is smooth around each ring (its largest
 * ratios come from periodogram noise, ≈ 10–20×), while a screen's pixel grid, the moiré it beats into
 * with the camera sensor and a print's halftone screen concentrate energy in a few isolated bins
 * (symmetric pairs, hence 8 = 4 peaks).
 */
function periodicPeakStrength(power: Float64Array, size: number): number {
  const { peakRing: ringOf, peakRingSizes: ringSizes } = spectrumGeometry(size);
  // Each ring's bins gathered in one buffer (ring k from starts[k]), for its median.
  const starts = new Int32Array(ringSizes.length + 1);
  for (let k = 0; k < ringSizes.length; k++) starts[k + 1] = (starts[k] ?? 0) + (ringSizes[k] ?? 0);
  const filled = starts.slice(0, ringSizes.length);
  const values = new Float64Array(starts[ringSizes.length] ?? 0);
  for (let i = 0; i < size * size; i++) {
    const k = ringOf[i] ?? -1;
    if (k < 0) continue;
    values[filled[k] ?? 0] = power[i] ?? 0;
    filled[k] = (filled[k] ?? 0) + 1;
  }
  // Rings under 8 bins are never read, so an empty ring's NaN median stays unused.
  const medians = Float64Array.from(ringSizes, (_, k) =>
    median(values.subarray(starts[k] ?? 0, starts[k + 1] ?? 0), 'mean'),
  );
  const top = new Float64Array(8); // the 8 largest ratios, descending
  for (let i = 0; i < size * size; i++) {
    const k = ringOf[i] ?? -1;
    if (k < 0 || (ringSizes[k] ?? 0) < 8) continue;
    const m = medians[k] ?? 0;
    const ratio = m > 0 ? (power[i] ?? 0) / m : 0;
    if (ratio <= (top[7] ?? 0)) continue;
    let at = 7;
    while (at > 0 && (top[at - 1] ?? 0) < ratio) {
      top[at] = top[at - 1] ?? 0;
      at--;
    }
    top[at] = ratio;
  }
  let sum = 0;
  for (const r of top) sum += r;
  return Math.log10(sum / top.length + 1);
}

function addArrays(a: Float64Array, b: Float64Array): Float64Array {
  return a.map((x, i) => x + (b[i] ?? 0));
}

// ---------------------------------------------------------------------------------------------
// Sharpness

/**
 * Variance of the 4-neighbour Laplacian of the luma crop (log10(1 + var)) and the log10 ratio of that
 * variance to the one of the 2×-downsampled crop. Measured on the normalised crop, it is sharpness
 * relative to the face size. Why it discriminates: a print or screen photographed again is usually
 * out of focus or motion-blurred at the second capture; the fine-to-coarse ratio asks whether the
 * finest scale holds detail of its own or is a smooth interpolation of the coarser one.
 */
function laplacianSharpness(plane: Float64Array, size: number): { laplacian: number; fineToCoarse: number } {
  const fine = laplacianVariance(plane, size);
  const halfSize = size / 2;
  const coarse = new Float64Array(halfSize * halfSize);
  for (let y = 0; y < halfSize; y++) {
    for (let x = 0; x < halfSize; x++) {
      const o = 2 * y * size + 2 * x;
      coarse[y * halfSize + x] =
        ((plane[o] ?? 0) + (plane[o + 1] ?? 0) + (plane[o + size] ?? 0) + (plane[o + size + 1] ?? 0)) / 4;
    }
  }
  const coarseVariance = laplacianVariance(coarse, halfSize);
  return { laplacian: Math.log10(1 + fine), fineToCoarse: Math.log10((1 + fine) / (1 + coarseVariance)) };
}

function laplacianVariance(plane: Float64Array, size: number): number {
  let sum = 0;
  let sumSquares = 0;
  let n = 0;
  for (let y = 1; y < size - 1; y++) {
    for (let x = 1; x < size - 1; x++) {
      const i = y * size + x;
      const l =
        4 * (plane[i] ?? 0) -
        (plane[i - 1] ?? 0) -
        (plane[i + 1] ?? 0) -
        (plane[i - size] ?? 0) -
        (plane[i + size] ?? 0);
      sum += l;
      sumSquares += l * l;
      n++;
    }
  }
  const mean = sum / n;
  return Math.max(0, sumSquares / n - mean * mean);
}

// ---------------------------------------------------------------------------------------------
// Colour

/**
 * Colour moments of the crop: mean and spread of the chroma (Cb, Cr, offset from neutral), mean and
 * spread of HSV saturation, the circular spread of hue (1 − mean resultant length over pixels with
 * saturation ≥ 0.1), luma contrast (std / mean) and luma skewness. Why they discriminate: printer inks
 * and screen primaries reproduce skin with a narrower, shifted gamut (lower chroma spread, a colour
 * cast), and the second capture compresses contrast; these are also the features most exposed to the
 * capture room's lighting, which is why they are measured on the face only.
 */
function colourMoments(planes: Planes): {
  cbMean: number;
  crMean: number;
  cbStd: number;
  crStd: number;
  satMean: number;
  satStd: number;
  hueSpread: number;
  lumaContrast: number;
  lumaSkew: number;
} {
  const cb = meanStd(planes.cb);
  const cr = meanStd(planes.cr);
  const sat = meanStd(planes.s);
  const luma = meanStd(planes.y);
  let skew = 0;
  for (const y of planes.y) skew += ((y - luma.mean) / (luma.std || 1)) ** 3;
  skew /= planes.y.length;
  let c = 0;
  let s = 0;
  let n = 0;
  for (let i = 0; i < planes.h.length; i++) {
    if ((planes.s[i] ?? 0) < 0.1) continue;
    const hue = planes.h[i] ?? 0;
    c += Math.cos(hue);
    s += Math.sin(hue);
    n++;
  }
  const hueSpread = n > 0 ? 1 - Math.hypot(c, s) / n : 1;
  return {
    cbMean: cb.mean - 128,
    crMean: cr.mean - 128,
    cbStd: cb.std,
    crStd: cr.std,
    satMean: sat.mean,
    satStd: sat.std,
    hueSpread,
    lumaContrast: luma.mean > 0 ? luma.std / luma.mean : 0,
    lumaSkew: skew,
  };
}

function meanStd(values: Float64Array): { mean: number; std: number } {
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / values.length;
  let squares = 0;
  for (const v of values) squares += (v - mean) ** 2;
  return { mean, std: Math.sqrt(squares / values.length) };
}

// ---------------------------------------------------------------------------------------------
// Specular reflections and clipping

/**
 * Share of clipped highlights (luma ≥ 250), of specular-like pixels (saturation < 0.12 and value
 * > 0.86: white glare, whatever the skin colour), of crushed shadows (value < 0.04), and the highlight
 * range (99th minus 50th luma percentile, / 255). Why they discriminate: glossy photo paper and a
 * screen's glass reflect the room's lights as flat white patches that skin, a diffuse reflector with
 * small highlights, rarely shows; screens and prints also clip and crush the tonal range differently
 * from a camera viewing a real face.
 */
function specularStatistics(planes: Planes): { clipped: number; white: number; dark: number; highlightRange: number } {
  const n = planes.y.length;
  let clipped = 0;
  let white = 0;
  let dark = 0;
  const histogram = new Float64Array(256);
  for (let i = 0; i < n; i++) {
    const y = planes.y[i] ?? 0;
    const value = planes.v[i] ?? 0;
    if (y >= 250) clipped++;
    if ((planes.s[i] ?? 0) < 0.12 && value > 0.86) white++;
    if (value < 0.04) dark++;
    const level = Math.min(255, Math.max(0, Math.round(y)));
    histogram[level] = (histogram[level] ?? 0) + 1;
  }
  const percentile = (q: number): number => {
    let cumulative = 0;
    for (let level = 0; level < 256; level++) {
      cumulative += histogram[level] ?? 0;
      if (cumulative >= q * n) return level;
    }
    return 255;
  };
  return {
    clipped: clipped / n,
    white: white / n,
    dark: dark / n,
    highlightRange: (percentile(0.99) - percentile(0.5)) / 255,
  };
}

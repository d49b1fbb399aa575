/**
 * The bright-screen light trace: while the capture app flashes colours on the phone screen, a real
 * face close to it reflects them, so the face's chromaticity follows the screen's colour sequence. A
 * replayed video, a photo or a screen held up to the camera does not follow a sequence it could not
 * know in advance.
 */

export type Rgb = readonly [number, number, number];

export interface LightTrace {
  /** Correlation (-1..1) of the face's chromaticity changes with the screen's, over frames and channels. */
  readonly correlation: number;
  /** RMS change of the face's chromaticity: near 0 means the face did not respond at all. */
  readonly amplitude: number;
}

export type LightTraceVerdict = 'PASS' | 'FAIL' | 'INCONCLUSIVE';

/**
 * Limits of the verdict. Not calibrated on recorded light-trace captures (none were available): set
 * on synthetic sequences and documented as provisional in docs/liveness.md.
 */
export const LIGHT_TRACE_LIMITS = { passCorrelation: 0.6, failCorrelation: 0.2, minAmplitude: 0.002 } as const;

/**
 * Compares the face colour of each frame with the screen colour shown for it.
 *
 * @example
 * lightTrace([[200, 150, 140], [180, 170, 140], [180, 150, 160]], [[255, 0, 0], [0, 255, 0], [0, 0, 255]]);
 * // { correlation: ~1, amplitude: ~0.03 }
 */
export function lightTrace(face: readonly Rgb[], screen: readonly Rgb[]): LightTrace {
  if (face.length !== screen.length || face.length < 2)
    throw new RangeError('one screen colour per face colour, at least two frames');
  const faceChroma = centred(face.map(chromaticity));
  const screenChroma = centred(screen.map(chromaticity));
  let dot = 0;
  let faceEnergy = 0;
  let screenEnergy = 0;
  // Both hold 3 values per frame and the frame counts are equal: every read is in bounds.
  for (let i = 0; i < faceChroma.length; i++) {
    const f = faceChroma[i] ?? 0;
    const s = screenChroma[i] ?? 0;
    dot += f * s;
    faceEnergy += f ** 2;
    screenEnergy += s ** 2;
  }
  const correlation = faceEnergy > 0 && screenEnergy > 0 ? dot / Math.sqrt(faceEnergy * screenEnergy) : 0;
  return { correlation, amplitude: Math.sqrt(faceEnergy / faceChroma.length) };
}

/**
 * PASS when the face follows the screen, FAIL when it clearly does not; in between, or when the face
 * hardly responded (too much ambient light, too far from the screen), INCONCLUSIVE — which STRICT
 * mode turns into FAIL.
 */
export function lightTraceVerdict(trace: LightTrace, strict: boolean): LightTraceVerdict {
  const { passCorrelation, failCorrelation, minAmplitude } = LIGHT_TRACE_LIMITS;
  let verdict: LightTraceVerdict = 'INCONCLUSIVE';
  if (trace.amplitude >= minAmplitude && trace.correlation >= passCorrelation) verdict = 'PASS';
  else if (trace.amplitude >= minAmplitude && trace.correlation <= failCorrelation) verdict = 'FAIL';
  return verdict === 'INCONCLUSIVE' && strict ? 'FAIL' : verdict;
}

/**
 * The screen colour a frame's tags name: `SCREEN_COLOR_RRGGBB` (hex) or `SCREEN_RED`, `SCREEN_GREEN`,
 * `SCREEN_BLUE`, `SCREEN_WHITE`; undefined when none does.
 */
export function screenColourOf(tags: readonly string[]): Rgb | undefined {
  for (const tag of tags) {
    const hex = /^SCREEN_COLOR_([0-9A-Fa-f]{6})$/.exec(tag)?.[1];
    if (hex !== undefined) {
      const value = Number.parseInt(hex, 16);
      return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
    }
    const named = NAMED[tag];
    if (named) return named;
  }
  return undefined;
}

const NAMED: Readonly<Record<string, Rgb>> = {
  SCREEN_RED: [255, 0, 0],
  SCREEN_GREEN: [0, 255, 0],
  SCREEN_BLUE: [0, 0, 255],
  SCREEN_WHITE: [255, 255, 255],
};

/** r, g, b divided by their sum: colour without brightness. */
function chromaticity([r, g, b]: Rgb): Rgb {
  const sum = r + g + b || 1;
  return [r / sum, g / sum, b / sum];
}

const CHANNELS = [0, 1, 2] as const;

/** Deviations from the per-channel mean over frames, flattened (r, g, b of frame 0, then of frame 1, ...). */
function centred(values: readonly Rgb[]): Float64Array {
  const channelMean = (c: 0 | 1 | 2): number => values.reduce((s, v) => s + v[c], 0) / values.length;
  const mean: Rgb = [channelMean(0), channelMean(1), channelMean(2)];
  return Float64Array.from(values.flatMap((v) => CHANNELS.map((c) => v[c] - mean[c])));
}

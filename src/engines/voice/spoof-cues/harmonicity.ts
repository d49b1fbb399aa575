/**
 * High-band harmonicity and F0 micro-prosody (synthetic-speech cues). A pulse-excited synthesiser (formant,
 * diphone, HTS with a pulse/noise source) makes the 4-7 kHz band as periodic as the low band, or, with a
 * noise-only high band (harmonic+noise vocoders), not periodic at all; a human voice sits in between
 * (glottal pulses are irregular and breathy up there). And a synthesiser's F0 contour is smooth or piecewise
 * linear from frame to frame, where a human F0 wobbles (micro-prosody): the second difference of log F0.
 * How that curvature grows from 20 to 40 ms steps tells a contour that moves at the scale of intonation (a
 * voice) from frame-to-frame jitter on a straight line (a diphone synthesiser: the recorded units' residual
 * jitter, their F0 moved to targets joined by straight lines).
 */
import { fft1d } from '../../../lib/fft.js';
import { median } from '../../../lib/median.js';
import { powerSpectraOfPair } from '../../../lib/real-fft-pair.js';

export interface HarmonicityCues {
  /** Median over voiced frames of the 4-7 kHz band's autocorrelation envelope at the pitch period (0..1). */
  readonly highBand: number;
  /** Median |second difference| of log2 F0 over runs of three voiced frames 20 ms apart (octaves). */
  readonly pitchCurvature: number;
  /**
   * log2 of the median |second difference| of log2 F0 over 40 ms steps (five voiced frames in a row) over
   * that over 20 ms steps: about 1.1 for read speech, 0 for white jitter on a straight contour, 2 for a
   * smooth curve; 0 when no run of five voiced frames holds.
   */
  readonly curvatureScale: number;
  /**
   * Pitch period (samples, sub-sample) of each 40 ms frame starting every 20 ms (frame i at sample 320 i),
   * 0 where the frame is not voiced: the track other cues (harmonic-phase.ts) analyse the voiced frames by.
   */
  readonly periods: Float64Array;
}

/** Analysis frame of the pitch track (samples at 16 kHz) and its hop. */
export const PITCH_FRAME = 640;
export const PITCH_HOP = 320;

const RATE = 16_000;
/** 40 ms Hann frames every 20 ms; lags up to 267 samples (60 Hz) fit a 1024-point linear autocorrelation. */
const FRAME = PITCH_FRAME;
const HOP = PITCH_HOP;
const FFT = 1024;
const MIN_LAG = 40;
const MAX_LAG = 267;
const VOICED = 0.5;
const HIGH_LOW_HZ = 4000;
const HIGH_TOP_HZ = 7000;
const LOW_TOP_HZ = 4000;
/** A step of log2 F0 between neighbouring frames above this is an octave error of the track, not prosody. */
const OCTAVE_JUMP = 0.3;
/**
 * Floor under both curvatures of curvatureScale (octaves): about the sub-sample resolution of the track's
 * period at 100 Hz (0.1 of 160 samples), so that a flat contour gives a finite ratio.
 */
const CURVATURE_FLOOR = 1e-3;

let windowLags: Float64Array | undefined;
const windowShape = new Float64Array(FRAME);
for (let i = 0; i < FRAME; i++) windowShape[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (FRAME - 1));

/** The Hann window's own autocorrelation, 1 at lag 0 (Boersma's correction). */
function hannLags(): Float64Array {
  if (windowLags !== undefined) return windowLags;
  const re = new Float64Array(FFT);
  const im = new Float64Array(FFT);
  re.set(windowShape);
  fft1d(re, im);
  for (let k = 0; k < FFT; k++) {
    re[k] = (re[k] ?? 0) ** 2 + (im[k] ?? 0) ** 2;
    im[k] = 0;
  }
  fft1d(re, im);
  const zero = re[0] ?? 1;
  windowLags = Float64Array.from({ length: MAX_LAG + 2 }, (_, lag) => (re[lag] ?? 0) / zero);
  return windowLags;
}

/** Power spectra (bins 0..FFT/2) of two real frames at once (the second may be absent: zeros). */
function powerPair(
  speech: Float32Array,
  startA: number,
  startB: number | undefined,
  re: Float64Array,
  im: Float64Array,
  a: Float64Array,
  b: Float64Array,
): void {
  re.fill(0);
  im.fill(0);
  for (let i = 0; i < FRAME; i++) {
    re[i] = (speech[startA + i] ?? 0) * (windowShape[i] ?? 0);
    if (startB !== undefined) im[i] = (speech[startB + i] ?? 0) * (windowShape[i] ?? 0);
  }
  powerSpectraOfPair(re, im, { into: a }, { into: b });
}

/**
 * The harmonicity cues of speech with its silences trimmed (speechSamples), 16 kHz.
 *
 * @example
 * harmonicity(speechSamples(samples, activity)); // { highBand: 0.35, pitchCurvature: 0.02, curvatureScale: 1.1, … }
 */
export function harmonicity(speech: Float32Array): HarmonicityCues {
  const window = hannLags();
  const lowTop = Math.round((LOW_TOP_HZ * FFT) / RATE);
  const highLow = Math.round((HIGH_LOW_HZ * FFT) / RATE);
  const highTop = Math.round((HIGH_TOP_HZ * FFT) / RATE);
  const re = new Float64Array(FFT);
  const im = new Float64Array(FFT);
  const energies: number[] = [];
  for (let start = 0; start + FRAME <= speech.length; start += HOP) {
    let e = 0;
    for (let i = start; i < start + FRAME; i++) e += (speech[i] ?? 0) ** 2;
    energies.push(e);
  }
  const loudest = energies.reduce((a, b) => Math.max(a, b), 0);
  const analysed = energies.flatMap((energy, index) => (energy === 0 || energy < loudest * 1e-3 ? [] : [index]));
  const spectra = new Map<number, Float64Array>();
  for (let p = 0; p < analysed.length; p += 2) {
    const first = analysed[p] ?? 0;
    const second = analysed[p + 1];
    const a = new Float64Array(FFT / 2 + 1);
    const b = new Float64Array(FFT / 2 + 1);
    powerPair(speech, first * HOP, second === undefined ? undefined : second * HOP, re, im, a, b);
    spectra.set(first, a);
    if (second !== undefined) spectra.set(second, b);
  }
  const high: number[] = [];
  const logF0: number[] = []; // NaN for a frame not voiced
  const periods = new Float64Array(energies.length);
  for (let index = 0; index < energies.length; index++) {
    const power = spectra.get(index);
    if (power === undefined) {
      logF0.push(Number.NaN);
      continue;
    }
    // One inverse transform for both bands: the low band's even spectrum in the real part, the high band's
    // even spectrum in the imaginary part, and its odd part (for the analytic signal) in the real part again.
    // Lag domain: real = low-band autocorrelation (even); imaginary = high-band autocorrelation R (even) plus
    // its quadrature Q (odd), separated by reading lags T and FFT - T.
    re.fill(0);
    im.fill(0);
    for (let k = 0; k <= lowTop; k++) {
      re[k] = power[k] ?? 0;
      if (k > 0) re[FFT - k] = power[k] ?? 0;
    }
    let high0 = 0;
    for (let k = highLow; k <= highTop; k++) {
      const value = power[k] ?? 0;
      im[k] = value;
      im[FFT - k] = value;
      re[k] = (re[k] ?? 0) + value;
      re[FFT - k] = (re[FFT - k] ?? 0) - value;
      high0 += value;
    }
    fft1d(re, im);
    // The odd high-band part adds only to the imaginary lag values, so the real part is the low band alone.
    const low0 = re[0] ?? 0;
    if (low0 <= 0) {
      logF0.push(Number.NaN);
      continue;
    }
    let best = 0;
    let bestLag = 0;
    for (let lag = MIN_LAG; lag <= MAX_LAG; lag++) {
      const value = (re[lag] ?? 0) / low0 / Math.max(window[lag] ?? 1, 1e-3);
      if (value > best) {
        best = value;
        bestLag = lag;
      }
    }
    if (best < VOICED || bestLag === 0) {
      logF0.push(Number.NaN);
      continue;
    }
    // Parabolic interpolation of the peak: sub-sample period for the F0 contour.
    const a = (re[bestLag - 1] ?? 0) / low0;
    const b = (re[bestLag] ?? 0) / low0;
    const c = (re[bestLag + 1] ?? 0) / low0;
    const denominator = a - 2 * b + c;
    const offset = denominator < 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (a - c)) / denominator)) : 0;
    logF0.push(Math.log2(RATE / (bestLag + offset)));
    periods[index] = bestLag + offset;
    if (high0 <= 0) continue;
    // High band (4-7 kHz) analytic autocorrelation (R + iQ) / 2: its magnitude is the band's periodicity at
    // that lag whatever the sub-sample phase of the period.
    const forward = im[bestLag] ?? 0;
    const backward = im[FFT - bestLag] ?? 0;
    const envelope =
      Math.hypot((forward + backward) / 2, (forward - backward) / 2) / 2 / high0 / Math.max(window[bestLag] ?? 1, 1e-3);
    high.push(Math.min(1, envelope));
  }
  const pitchCurvature = contourCurvature(logF0, 1);
  const wide = contourCurvature(logF0, 2);
  const curvatureScale =
    wide === undefined || pitchCurvature === undefined
      ? 0
      : Math.log2((wide + CURVATURE_FLOOR) / (pitchCurvature + CURVATURE_FLOOR));
  const highBand = high.length === 0 ? 0 : median(high, 'upper');
  return { highBand, pitchCurvature: pitchCurvature ?? 0, curvatureScale, periods };
}

/**
 * Median |second difference| of log2 F0 over steps of `step` frames, over runs of 2·step + 1 voiced frames
 * with no octave jump between neighbours (a tracking error, not prosody); undefined when no run holds.
 */
function contourCurvature(logF0: readonly number[], step: number): number | undefined {
  const values: number[] = [];
  for (let i = 2 * step; i < logF0.length; i++) {
    let run = true;
    for (let j = i - 2 * step; j <= i && run; j++) {
      const value = logF0[j] ?? Number.NaN;
      if (Number.isNaN(value) || (j > i - 2 * step && Math.abs(value - (logF0[j - 1] ?? Number.NaN)) > OCTAVE_JUMP))
        run = false;
    }
    if (!run) continue;
    values.push(Math.abs((logF0[i] ?? 0) - 2 * (logF0[i - step] ?? 0) + (logF0[i - 2 * step] ?? 0)));
  }
  return values.length === 0 ? undefined : median(values, 'upper');
}

/**
 * Periodicity regularity (synthetic-speech cue): synthesisers drive voiced speech with a clean pulse train
 * whose period changes smoothly (or not at all), so voiced frames are more strongly periodic and the
 * frame-to-frame period jitter is lower than in a human voice.
 */
import { fft1d } from '../../../lib/fft.js';
import { powerSpectraOfPair } from '../../../lib/real-fft-pair.js';

export interface PeriodicityCues {
  /** Mean normalised autocorrelation peak of the voiced frames (0..1). */
  readonly voicing: number;
  /** Share of analysed frames that are voiced (peak >= 0.5). */
  readonly voicedShare: number;
  /** Median relative period change between consecutive voiced frames (octave jumps left out). */
  readonly jitter: number;
  /** Standard deviation of log2 of the period over voiced frames (intonation range, in octaves). */
  readonly pitchSpread: number;
}

/**
 * Analysis at 8 kHz (pairs averaged): 48 ms Hann frames every 20 ms, periods 2.5-16 ms (62-400 Hz). A
 * 512-point transform holds the linear autocorrelation up to lag 128 (384 + 128 samples: no wrap-around).
 */
const FRAME = 384;
const HOP = 160;
const FFT = 512;
const MIN_LAG = 20;
const MAX_LAG = 128;
const VOICED = 0.5;

let windowLags: Float64Array | undefined;
/** The Hann window of a frame. */
const hann = Float64Array.from({ length: FRAME }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (FRAME - 1)));

/** Autocorrelation of the Hann window itself, normalised to 1 at lag 0 (Boersma's correction). */
function hannAutocorrelation(): Float64Array {
  if (windowLags !== undefined) return windowLags;
  const re = new Float64Array(FFT);
  const im = new Float64Array(FFT);
  re.set(hann);
  windowLags = new Float64Array(MAX_LAG + 1);
  autocorrelatePair(re, im, windowLags, new Float64Array(MAX_LAG + 1));
  return windowLags;
}

const powerA = new Float64Array(FFT / 2 + 1);
const powerB = new Float64Array(FFT / 2 + 1);

/**
 * The linear autocorrelations (lags 0..MAX_LAG, r(0) = 1) of two real frames, the first in `re`, the second
 * in `im` (zero-padded): both power spectra from one FFT, then one more FFT of Pa + iPb, whose real part is
 * the (real, even) transform of Pa and imaginary part that of Pb — a forward FFT of a real even spectrum is
 * the inverse up to scale.
 */
function autocorrelatePair(re: Float64Array, im: Float64Array, a: Float64Array, b: Float64Array): void {
  powerSpectraOfPair(re, im, { into: powerA }, { into: powerB });
  for (let k = 0; k <= FFT / 2; k++) {
    re[k] = powerA[k] ?? 0;
    im[k] = powerB[k] ?? 0;
    if (k > 0 && k < FFT / 2) {
      re[FFT - k] = re[k] ?? 0;
      im[FFT - k] = im[k] ?? 0;
    }
  }
  fft1d(re, im);
  const zeroA = re[0] ?? 0;
  const zeroB = im[0] ?? 0;
  for (let lag = 0; lag <= MAX_LAG; lag++) {
    a[lag] = zeroA > 0 ? (re[lag] ?? 0) / zeroA : 0;
    b[lag] = zeroB > 0 ? (im[lag] ?? 0) / zeroB : 0;
  }
}

/**
 * Periodicity cues of speech with its silences trimmed (speechSamples), sampled at 16 kHz.
 *
 * @example
 * periodicity(speechSamples(samples, activity));
 * // { voicing: 0.84, voicedShare: 0.85, jitter: 0.02, pitchSpread: 0.37 }
 */
export function periodicity(speech: Float32Array): PeriodicityCues {
  const n = Math.floor(speech.length / 2);
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) x[i] = ((speech[2 * i] ?? 0) + (speech[2 * i + 1] ?? 0)) / 2;
  const starts: number[] = [];
  const energies: number[] = [];
  for (let start = 0; start + FRAME <= n; start += HOP) {
    let e = 0;
    for (let i = start; i < start + FRAME; i++) e += (x[i] ?? 0) ** 2;
    starts.push(start);
    energies.push(e);
  }
  const loudest = energies.reduce((a, b) => Math.max(a, b), 0);
  const window = hannAutocorrelation();
  const re = new Float64Array(FFT);
  const im = new Float64Array(FFT);
  const peaks: number[] = [];
  const lags: number[] = []; // 0 for an unvoiced frame
  // Frames 30 dB under the loudest are not analysed; the others go through two at a time.
  const analysed = starts.filter((_, index) => {
    const energy = energies[index] ?? 0;
    return energy > 0 && energy >= loudest * 1e-3;
  });
  const lagsA = new Float64Array(MAX_LAG + 1);
  const lagsB = new Float64Array(MAX_LAG + 1);
  const windowed = (part: Float64Array, start: number | undefined): void => {
    part.fill(0);
    if (start === undefined) return;
    for (let i = 0; i < FRAME; i++) part[i] = (x[start + i] ?? 0) * (hann[i] ?? 0);
  };
  const peakOf = (r: Float64Array): void => {
    let bestR = 0;
    let bestLag = 0;
    for (let lag = MIN_LAG; lag <= MAX_LAG; lag++) {
      const value = (r[lag] ?? 0) / Math.max(window[lag] ?? 1, 1e-3);
      if (value > bestR) {
        bestR = value;
        bestLag = lag;
      }
    }
    bestR = Math.min(bestR, 1);
    peaks.push(bestR);
    lags.push(bestR >= VOICED ? bestLag : 0);
  };
  for (let p = 0; p < analysed.length; p += 2) {
    windowed(re, analysed[p]);
    windowed(im, analysed[p + 1]);
    autocorrelatePair(re, im, lagsA, lagsB);
    peakOf(lagsA);
    if (p + 1 < analysed.length) peakOf(lagsB);
  }
  const voicedPeaks = peaks.filter((p) => p >= VOICED);
  const logPeriods = lags.filter((lag) => lag > 0).map(Math.log2);
  const changes: number[] = [];
  for (let i = 1; i < lags.length; i++) {
    const a = lags[i - 1] ?? 0;
    const b = lags[i] ?? 0;
    if (a > 0 && b > 0 && Math.abs(b - a) / a < 0.2) changes.push(Math.abs(b - a) / a);
  }
  changes.sort((a, b) => a - b);
  const meanLog = logPeriods.reduce((a, b) => a + b, 0) / Math.max(logPeriods.length, 1);
  return {
    voicing: voicedPeaks.length === 0 ? 0 : voicedPeaks.reduce((a, b) => a + b, 0) / voicedPeaks.length,
    voicedShare: peaks.length === 0 ? 0 : voicedPeaks.length / peaks.length,
    jitter: changes.length === 0 ? 0 : (changes[Math.floor(changes.length / 2)] ?? 0),
    pitchSpread:
      logPeriods.length === 0
        ? 0
        : Math.sqrt(logPeriods.reduce((a, b) => a + (b - meanLog) ** 2, 0) / logPeriods.length),
  };
}

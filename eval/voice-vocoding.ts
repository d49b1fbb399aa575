/**
 * Vocoded bona fide speech: a training-only attack class for voice spoof detection, made from bona fide
 * speech alone by analysis-resynthesis with what synthesisers share rather than what one engine does
 * (after Wang & Yamagishi 2023, vocoded spoofed data for countermeasure training):
 *  - `lpc-pulse`: LPC envelope (order 18) driven by an impulse train at a frame-stepped F0 or white noise,
 *    the excitation of diphone, formant and early HTS engines;
 *  - `lpc-harmonic`: the same envelope driven by harmonics of a smoothed F0 track with a little noise mixed
 *    in (harmonic-plus-noise vocoders: no jitter, no shimmer, no breathy aperiodicity);
 *  - `griffin-lim`: the magnitude spectrogram kept, its phase rebuilt by Griffin-Lim iterations from noise
 *    (the phase artefacts of magnitude-only vocoders);
 *  - `td-psola` (not in the round-robin of VOCODERS: the corpus gives it a pass of its own): the input's own
 *    pitch periods overlap-added on a new F0 contour of straight lines between targets, what diphone and
 *    unit-concatenation synthesisers do to recorded units (real glottal cycles on rule-made prosody).
 * Eval code only: the server never runs it. Deterministic for a given seed.
 */
import { fft1d } from '../src/lib/fft.js';
import { seededRandom } from '../src/lib/seeded-random.js';

export const VOCODERS = ['lpc-pulse', 'lpc-harmonic', 'griffin-lim'] as const;
export type Vocoder = (typeof VOCODERS)[number] | 'td-psola';

const RATE = 16_000;
const FRAME = 320;
const HOP = 160;
const ORDER = 18;
const PRE_EMPHASIS = 0.97;

function hann(length: number): Float64Array {
  const window = new Float64Array(length);
  for (let i = 0; i < length; i++) window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / length);
  return window;
}

/** LPC coefficients a[1..order] (A(z) = 1 + Σ a_k z^-k) and prediction error by Levinson-Durbin. */
function levinson(r: Float64Array, order: number): { a: Float64Array; error: number } {
  const a = new Float64Array(order + 1);
  a[0] = 1;
  let error = (r[0] ?? 0) * (1 + 1e-9) + 1e-12;
  for (let i = 1; i <= order; i++) {
    let acc = r[i] ?? 0;
    for (let j = 1; j < i; j++) acc += (a[j] ?? 0) * (r[i - j] ?? 0);
    const k = -acc / error;
    const previous = a.slice();
    for (let j = 1; j < i; j++) a[j] = (previous[j] ?? 0) + k * (previous[i - j] ?? 0);
    a[i] = k;
    error *= 1 - k * k;
    if (error <= 0) {
      error = 1e-12;
      break;
    }
  }
  return { a, error };
}

/**
 * F0 of each frame (0 = unvoiced): autocorrelation of a 32 ms Hann-windowed span by FFT, divided by the
 * window's own autocorrelation (Boersma 1993), peak between 60 and 400 Hz above 0.45.
 */
function pitchTrack(samples: Float32Array, frames: number): Float64Array {
  const f0 = new Float64Array(frames);
  const span = 512;
  const size = 1024;
  const minLag = Math.floor(RATE / 400);
  const maxLag = Math.ceil(RATE / 60);
  const window = hann(span);
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  for (let i = 0; i < span; i++) re[i] = window[i] ?? 0;
  fft1d(re, im);
  for (let k = 0; k < size; k++) {
    re[k] = (re[k] ?? 0) ** 2 + (im[k] ?? 0) ** 2;
    im[k] = 0;
  }
  fft1d(re, im);
  const windowAc = re.slice(0, maxLag + 1);
  for (let f = 0; f < frames; f++) {
    const start = f * HOP + FRAME / 2 - span / 2;
    re.fill(0);
    im.fill(0);
    for (let i = 0; i < span; i++) re[i] = (samples[start + i] ?? 0) * (window[i] ?? 0);
    fft1d(re, im);
    for (let k = 0; k < size; k++) {
      re[k] = (re[k] ?? 0) ** 2 + (im[k] ?? 0) ** 2;
      im[k] = 0;
    }
    fft1d(re, im);
    const r0 = re[0] ?? 0;
    if (r0 < 1e-8) continue;
    let best = 0;
    let bestLag = 0;
    for (let lag = minLag; lag <= maxLag; lag++) {
      const r = (re[lag] ?? 0) / r0 / Math.max((windowAc[lag] ?? 0) / (windowAc[0] ?? 1), 1e-3);
      if (r > best) {
        best = r;
        bestLag = lag;
      }
    }
    if (best > 0.45 && bestLag > 0) f0[f] = RATE / bestLag;
  }
  return f0;
}

/** Median of 5 over voiced runs, then a 3-frame moving average: a smooth F0 contour without jitter. */
function smoothPitch(f0: Float64Array): Float64Array {
  const median = new Float64Array(f0.length);
  for (let f = 0; f < f0.length; f++) {
    if ((f0[f] ?? 0) === 0) continue;
    const around: number[] = [];
    for (let k = -2; k <= 2; k++) if ((f0[f + k] ?? 0) > 0) around.push(f0[f + k] ?? 0);
    around.sort((x, y) => x - y);
    median[f] = around[Math.floor(around.length / 2)] ?? 0;
  }
  const smooth = new Float64Array(f0.length);
  for (let f = 0; f < f0.length; f++) {
    if ((median[f] ?? 0) === 0) continue;
    let sum = 0;
    let n = 0;
    for (let k = -1; k <= 1; k++)
      if ((median[f + k] ?? 0) > 0) {
        sum += median[f + k] ?? 0;
        n++;
      }
    smooth[f] = sum / n;
  }
  return smooth;
}

/** LPC analysis-resynthesis, frame by frame with 50% overlap-add; each frame's energy matched to the input's. */
function lpcVocode(samples: Float32Array, harmonic: boolean, random: () => number): Float32Array {
  const length = samples.length;
  const emphasised = new Float64Array(length);
  for (let i = 0; i < length; i++) emphasised[i] = (samples[i] ?? 0) - PRE_EMPHASIS * (samples[i - 1] ?? 0);
  const frames = Math.max(0, Math.floor((length - FRAME) / HOP) + 1);
  const rawF0 = pitchTrack(samples, frames);
  const f0 = harmonic ? smoothPitch(rawF0) : rawF0;
  const noiseMix = harmonic ? 0.05 + random() * 0.2 : 0;
  // Continuous excitation: per sample, F0 interpolated between frame centres (harmonic) or held (pulse).
  const excitation = new Float64Array(length);
  let phase = 0;
  for (let i = 0; i < length; i++) {
    const position = (i - FRAME / 2) / HOP;
    const f = Math.min(frames - 1, Math.max(0, Math.round(position)));
    let pitch = f0[f] ?? 0;
    if (harmonic) {
      const lower = Math.min(frames - 1, Math.max(0, Math.floor(position)));
      const upper = Math.min(frames - 1, lower + 1);
      const a = f0[lower] ?? 0;
      const b = f0[upper] ?? 0;
      const t = Math.min(1, Math.max(0, position - lower));
      pitch = a > 0 && b > 0 ? a + (b - a) * t : pitch;
    }
    const noise = random() * 2 - 1;
    if (pitch <= 0) {
      excitation[i] = noise;
      continue;
    }
    const previous = phase;
    phase += pitch / RATE;
    if (harmonic) {
      // Harmonics up to 4 kHz, equal amplitudes (the envelope shapes them), plus the noise share.
      const count = Math.max(1, Math.floor(4000 / pitch));
      let sum = 0;
      for (let k = 1; k <= count; k++) sum += Math.cos(2 * Math.PI * k * phase);
      excitation[i] = (sum / Math.sqrt(count / 2)) * Math.sqrt(1 - noiseMix) + noise * Math.sqrt(noiseMix) * 1.7;
    } else {
      excitation[i] = Math.floor(phase) > Math.floor(previous) ? Math.sqrt(RATE / pitch) : 0;
    }
  }
  const window = hann(FRAME);
  const out = new Float64Array(length);
  const frame = new Float64Array(FRAME);
  const r = new Float64Array(ORDER + 1);
  const warm = HOP;
  for (let f = 0; f < frames; f++) {
    const start = f * HOP;
    let target = 0;
    for (let i = 0; i < FRAME; i++) {
      frame[i] = (emphasised[start + i] ?? 0) * (window[i] ?? 0);
      target += (frame[i] ?? 0) ** 2;
    }
    if (target < 1e-10) continue;
    for (let lag = 0; lag <= ORDER; lag++) {
      let sum = 0;
      for (let i = lag; i < FRAME; i++) sum += (frame[i] ?? 0) * (frame[i - lag] ?? 0);
      r[lag] = sum;
    }
    const { a } = levinson(r, ORDER);
    // All-pole filter over the frame, started a hop early so the filter has rung in.
    const synth = new Float64Array(FRAME + warm);
    for (let i = 0; i < FRAME + warm; i++) {
      let y = excitation[start - warm + i] ?? 0;
      for (let k = 1; k <= ORDER && i - k >= 0; k++) y -= (a[k] ?? 0) * (synth[i - k] ?? 0);
      synth[i] = y;
    }
    let energy = 0;
    for (let i = 0; i < FRAME; i++) energy += ((synth[warm + i] ?? 0) * (window[i] ?? 0)) ** 2;
    const gain = Math.sqrt(target / (energy + 1e-20));
    for (let i = 0; i < FRAME; i++)
      out[start + i] = (out[start + i] ?? 0) + (synth[warm + i] ?? 0) * (window[i] ?? 0) * gain;
  }
  // Undo the pre-emphasis.
  const result = new Float32Array(length);
  let previous = 0;
  for (let i = 0; i < length; i++) {
    previous = (out[i] ?? 0) + PRE_EMPHASIS * previous;
    result[i] = previous;
  }
  return result;
}

/** Magnitude-only resynthesis: Griffin-Lim from random phase (512-point frames, hop 128). */
function griffinLim(samples: Float32Array, iterations: number, random: () => number): Float32Array {
  const size = 512;
  const hop = 128;
  const length = samples.length;
  const frames = Math.max(1, Math.floor((length - size) / hop) + 1);
  const window = hann(size);
  const magnitude = new Float64Array(frames * size);
  const phaseRe = new Float64Array(frames * size);
  const phaseIm = new Float64Array(frames * size);
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  for (let f = 0; f < frames; f++) {
    for (let i = 0; i < size; i++) {
      re[i] = (samples[f * hop + i] ?? 0) * (window[i] ?? 0);
      im[i] = 0;
    }
    fft1d(re, im);
    for (let k = 0; k < size; k++) {
      magnitude[f * size + k] = Math.hypot(re[k] ?? 0, im[k] ?? 0);
      const angle = 2 * Math.PI * random();
      phaseRe[f * size + k] = Math.cos(angle);
      phaseIm[f * size + k] = Math.sin(angle);
    }
  }
  // Window-square sum for the least-squares inverse STFT.
  const norm = new Float64Array(length);
  for (let f = 0; f < frames; f++)
    for (let i = 0; i < size; i++) norm[f * hop + i] = (norm[f * hop + i] ?? 0) + (window[i] ?? 0) ** 2;
  const signal = new Float64Array(length);
  for (let iteration = 0; iteration <= iterations; iteration++) {
    signal.fill(0);
    for (let f = 0; f < frames; f++) {
      // Inverse FFT by conjugation: ifft(X) = conj(fft(conj(X))) / N.
      for (let k = 0; k < size; k++) {
        const m = magnitude[f * size + k] ?? 0;
        re[k] = m * (phaseRe[f * size + k] ?? 0);
        im[k] = -m * (phaseIm[f * size + k] ?? 0);
      }
      fft1d(re, im);
      for (let i = 0; i < size; i++)
        signal[f * hop + i] = (signal[f * hop + i] ?? 0) + ((re[i] ?? 0) / size) * (window[i] ?? 0);
    }
    for (let i = 0; i < length; i++) signal[i] = (signal[i] ?? 0) / Math.max(norm[i] ?? 0, 1e-3);
    if (iteration === iterations) break;
    for (let f = 0; f < frames; f++) {
      for (let i = 0; i < size; i++) {
        re[i] = (signal[f * hop + i] ?? 0) * (window[i] ?? 0);
        im[i] = 0;
      }
      fft1d(re, im);
      for (let k = 0; k < size; k++) {
        const m = Math.hypot(re[k] ?? 0, im[k] ?? 0);
        phaseRe[f * size + k] = m > 1e-12 ? (re[k] ?? 0) / m : 1;
        phaseIm[f * size + k] = m > 1e-12 ? (im[k] ?? 0) / m : 0;
      }
    }
  }
  return Float32Array.from(signal);
}

/** A pitch mark: the sample it sits on, the local period in samples, and whether it is voiced. */
interface PitchMark {
  readonly at: number;
  readonly period: number;
  readonly voiced: boolean;
}

/** Samples between unvoiced marks (8 ms): copied through at the same spacing, as TD-PSOLA does. */
const UNVOICED_PERIOD = 128;

/**
 * Analysis marks: one per period in voiced frames, each on the largest sample of the utterance's dominant
 * polarity within a quarter period of where the previous mark and period put it (so successive marks sit at
 * the same point of successive glottal cycles), and every 8 ms elsewhere.
 */
function pitchMarks(samples: Float32Array, f0: Float64Array): PitchMark[] {
  let top = 0;
  let bottom = 0;
  for (const v of samples) {
    top = Math.max(top, v);
    bottom = Math.min(bottom, v);
  }
  const sign = top >= -bottom ? 1 : -1;
  const f0At = (t: number): number => f0[Math.min(f0.length - 1, Math.max(0, Math.round((t - FRAME / 2) / HOP)))] ?? 0;
  const marks: PitchMark[] = [];
  let t = 0;
  let previousVoiced = false;
  while (t < samples.length) {
    const pitch = f0At(t);
    if (pitch <= 0) {
      marks.push({ at: t, period: UNVOICED_PERIOD, voiced: false });
      t += UNVOICED_PERIOD;
      previousVoiced = false;
      continue;
    }
    const period = RATE / pitch;
    const from = previousVoiced ? Math.round(t - period / 4) : Math.round(t);
    const to = previousVoiced ? Math.round(t + period / 4) : Math.round(t + period);
    let best = from;
    for (let i = from; i <= to && i < samples.length; i++)
      if (sign * (samples[i] ?? 0) > sign * (samples[best] ?? 0)) best = i;
    const at = Math.max(best, (marks[marks.length - 1]?.at ?? -1) + 1);
    marks.push({ at, period, voiced: true });
    t = at + period;
    previousVoiced = true;
  }
  return marks;
}

/**
 * The new F0 contour per frame (0 where unvoiced): in every voiced run, targets every 80-280 ms and at its
 * ends, each the median F0 within 30 ms of it moved by up to ±8% and by the item's own factor (0.9-1.1),
 * joined by straight lines.
 */
function targetContour(f0: Float64Array, random: () => number): Float64Array {
  const contour = new Float64Array(f0.length);
  const factor = 0.9 + random() * 0.2;
  // Frames between targets: 8-19 for the item (syllable to word), each step up to half that again.
  const spacing = 8 + Math.floor(random() * 12);
  const targetAt = (g: number): number => {
    const around: number[] = [];
    for (let k = -3; k <= 3; k++) if ((f0[g + k] ?? 0) > 0) around.push(f0[g + k] ?? 0);
    around.sort((a, b) => a - b);
    return (around[Math.floor(around.length / 2)] ?? 0) * factor * (1 + 0.08 * (2 * random() - 1));
  };
  let start = 0;
  while (start < f0.length) {
    if ((f0[start] ?? 0) <= 0) {
      start++;
      continue;
    }
    let end = start;
    while (end + 1 < f0.length && (f0[end + 1] ?? 0) > 0) end++;
    const points = [start];
    const step = (): number => spacing + Math.floor(random() * (spacing / 2));
    for (let g = start + step(); g < end; g += step()) points.push(g);
    if (end > start) points.push(end);
    const values = points.map(targetAt);
    for (let p = 0; p < points.length; p++) {
      const a = points[p] ?? start;
      const b = points[p + 1] ?? a;
      const va = values[p] ?? 0;
      const vb = values[p + 1] ?? va;
      for (let g = a; g <= b; g++) contour[g] = b === a ? va : va + ((vb - va) * (g - a)) / (b - a);
    }
    start = end + 1;
  }
  return contour;
}

/**
 * TD-PSOLA on rule-like prosody: synthesis marks every target period (the analysis period where unvoiced),
 * on a grid of 1 or 2 samples (units stored at 16 or 8 kHz), the time axis stretched by 0.85-1.2; at each, the
 * nearest analysis mark's two periods under a Hann window are added. The result is cut or padded to the
 * input's length.
 */
function psolaVocode(samples: Float32Array, random: () => number): Float32Array {
  const length = samples.length;
  const frames = Math.max(1, Math.floor((length - FRAME) / HOP) + 1);
  const f0 = pitchTrack(samples, frames);
  const marks = pitchMarks(samples, f0);
  const contour = targetContour(f0, random);
  const stretch = 0.85 + random() * 0.35;
  const grid = random() < 0.5 ? 1 : 2;
  const out = new Float64Array(length);
  let nearest = 0;
  for (let ts = (marks[0]?.at ?? 0) * stretch; ts < length;) {
    const ta = ts / stretch;
    while (
      nearest + 1 < marks.length &&
      Math.abs((marks[nearest + 1]?.at ?? 0) - ta) <= Math.abs((marks[nearest]?.at ?? 0) - ta)
    )
      nearest++;
    const mark = marks[nearest];
    if (mark === undefined) break;
    const target = contour[Math.min(frames - 1, Math.max(0, Math.round((ta - FRAME / 2) / HOP)))] ?? 0;
    const half = Math.round(mark.period);
    const at = Math.round(ts / grid) * grid;
    for (let i = -half; i < half; i++) {
      const w = 0.5 + 0.5 * Math.cos((Math.PI * i) / half);
      const j = at + i;
      if (j >= 0 && j < length) out[j] = (out[j] ?? 0) + (samples[mark.at + i] ?? 0) * w;
    }
    ts += mark.voiced && target > 0 ? RATE / target : mark.period;
  }
  return Float32Array.from(out);
}

/**
 * Vocodes 16 kHz mono speech with one of {@link VOCODERS} or `td-psola`; the result has the input's length and its peak
 * scaled to 0.7 of full scale (a level, not a cue).
 *
 * @example
 * const vocoded = vocode(bonafideSamples, 'lpc-pulse', 7);
 */
export function vocode(samples: Float32Array, vocoder: Vocoder, seed: number): Float32Array {
  const random = seededRandom(seed);
  const out =
    vocoder === 'griffin-lim'
      ? griffinLim(samples, 8 + Math.floor(random() * 8), random)
      : vocoder === 'td-psola'
        ? psolaVocode(samples, random)
        : lpcVocode(samples, vocoder === 'lpc-harmonic', random);
  let peak = 0;
  for (const v of out) peak = Math.max(peak, Math.abs(v));
  if (peak > 0) for (let i = 0; i < out.length; i++) out[i] = ((out[i] ?? 0) / peak) * 0.7;
  return out;
}

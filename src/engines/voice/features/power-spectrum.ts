import { powerSpectraOfPair } from '../../../lib/real-fft-pair.js';

/** Short-time analysis shared by every voice feature (MFCC, LFCC, ...): 25 ms Hamming frames every 10 ms. */
export interface SpectrumOptions {
  /** Samples per second of the input (16 000 for everything the voice engine decodes). */
  readonly sampleRate: number;
  /** Frame length in samples (default 25 ms). */
  readonly frameLength?: number;
  /** Hop between frame starts in samples (default 10 ms). */
  readonly hop?: number;
  /** FFT length, a power of two >= frameLength (default the next power of two). */
  readonly fftLength?: number;
  /** Pre-emphasis coefficient (default 0.97; 0 turns it off). */
  readonly preEmphasis?: number;
}

/** Power spectra of consecutive frames, row-major: `power[f * bins + k]`. */
export interface PowerSpectrogram {
  readonly frames: number;
  /** fftLength / 2 + 1 bins from 0 Hz to the Nyquist frequency. */
  readonly bins: number;
  readonly fftLength: number;
  readonly sampleRate: number;
  /** Hop between frames in samples. */
  readonly hop: number;
  readonly power: Float32Array;
}

const windowCache = new Map<number, Float64Array>();

function hammingWindow(length: number): Float64Array {
  const cached = windowCache.get(length);
  if (cached !== undefined) return cached;
  const window = new Float64Array(length);
  for (let i = 0; i < length; i++) window[i] = 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (length - 1));
  windowCache.set(length, window);
  return window;
}

/**
 * The power spectrogram of a mono signal: pre-emphasis, Hamming-windowed frames, |FFT|². A signal shorter than
 * one frame yields zero frames (callers decide whether that is an error).
 *
 * @example
 * const spectrum = powerSpectrogram(samples16k, { sampleRate: 16_000 });
 * spectrum.bins; // 257 (512-point FFT of 400-sample frames)
 */
export function powerSpectrogram(samples: Float32Array, options: SpectrumOptions): PowerSpectrogram {
  const { sampleRate } = options;
  const frameLength = options.frameLength ?? Math.round(sampleRate * 0.025);
  const hop = options.hop ?? Math.round(sampleRate * 0.01);
  const fftLength = options.fftLength ?? 2 ** Math.ceil(Math.log2(frameLength));
  const alpha = options.preEmphasis ?? 0.97;
  if (fftLength < frameLength || (fftLength & (fftLength - 1)) !== 0)
    throw new RangeError('fftLength must be a power of two no shorter than the frame');
  const frames = samples.length < frameLength ? 0 : 1 + Math.floor((samples.length - frameLength) / hop);
  const bins = fftLength / 2 + 1;
  const power = new Float32Array(frames * bins);
  const window = hammingWindow(frameLength);
  const re = new Float64Array(fftLength);
  const im = new Float64Array(fftLength);
  // Pre-emphasised, windowed frame f into `part` (zero-padded); its first sample uses its real predecessor.
  const fill = (part: Float64Array, f: number): void => {
    const start = f * hop;
    part.fill(0, frameLength);
    let previous = start > 0 ? (samples[start - 1] ?? 0) : 0;
    for (let i = 0; i < frameLength; i++) {
      const x = samples[start + i] ?? 0;
      part[i] = (x - alpha * previous) * (window[i] ?? 0);
      previous = x;
    }
  };
  // Two frames per FFT (the real signals in the real and imaginary parts); an odd last frame pairs with zeros.
  const unpaired = new Float32Array(bins);
  for (let f = 0; f < frames; f += 2) {
    fill(re, f);
    if (f + 1 < frames) fill(im, f + 1);
    else im.fill(0);
    powerSpectraOfPair(
      re,
      im,
      { into: power, at: f * bins },
      f + 1 < frames ? { into: power, at: (f + 1) * bins } : { into: unpaired },
    );
  }
  return { frames, bins, fftLength, sampleRate, hop, power };
}

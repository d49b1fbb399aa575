/**
 * Band limiting (replay cue): a loudspeaker, a phone line or a low-rate vocoder leaves little energy above
 * a few kHz, while speech picked up by a microphone directly reaches the Nyquist frequency.
 */
import { bandRatio, type LongTermSpectrum } from './long-term-spectrum.js';

export interface BandLimitCues {
  /** log10 power ratio 4–7 kHz / 0.3–4 kHz of the speech frames. */
  readonly high4to7: number;
  /** log10 power ratio 6–7 kHz / 0.3–4 kHz (a cut between 4 and 6 kHz shows here). */
  readonly high6to7: number;
  /** Highest frequency (as a share of `topHz`) whose power is within 50 dB of the peak. */
  readonly edge: number;
}

const EDGE_DROP_DB = 50;

/**
 * Band-limit cues of the long-term spectrum of the speech frames, read up to `topHz` only (above it, how a
 * recording was resampled decides, not how it was made).
 *
 * @example
 * bandLimitCues(longTermSpectrum(spectrum, isSpeech), 7000).edge; // ≈ 1 for full-band, 0.57 for speech cut at 4 kHz
 */
export function bandLimitCues(spectrum: LongTermSpectrum, topHz: number): BandLimitCues {
  const { power } = spectrum;
  let peak = 0;
  for (const p of power) peak = Math.max(peak, p);
  // Smooth over 5 bins (~150 Hz) so that one harmonic does not set the edge.
  const floor = peak * 10 ** (-EDGE_DROP_DB / 10);
  let edgeBin = 0;
  const topBin = Math.min(power.length - 3, Math.floor(topHz / spectrum.binHz));
  for (let k = 2; k <= topBin; k++) {
    const smooth =
      ((power[k - 2] ?? 0) + (power[k - 1] ?? 0) + (power[k] ?? 0) + (power[k + 1] ?? 0) + (power[k + 2] ?? 0)) / 5;
    if (smooth > floor) edgeBin = k;
  }
  return {
    high4to7: bandRatio(spectrum, [4000, topHz], [300, 4000]),
    high6to7: bandRatio(spectrum, [6000, topHz], [300, 4000]),
    edge: topBin > 0 ? edgeBin / topBin : 0,
  };
}

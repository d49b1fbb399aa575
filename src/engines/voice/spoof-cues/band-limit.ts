/**
 * Band limiting (replay cue): a loudspeaker, a phone line or a low-rate vocoder leaves little energy above
 * a few kHz, while speech picked up by a microphone directly reaches the Nyquist frequency.
 */
import { bandRatio, type LongTermSpectrum } from './long-term-spectrum.js';

export interface BandLimitCues {
  /** log10 power ratio 4–8 kHz / 0.3–4 kHz of the speech frames. */
  readonly high4to8: number;
  /** log10 power ratio 6–8 kHz / 0.3–4 kHz (a cut between 4 and 7 kHz shows here). */
  readonly high6to8: number;
  /** Highest frequency (as a share of the Nyquist frequency) whose power is within 50 dB of the peak. */
  readonly edge: number;
}

const EDGE_DROP_DB = 50;

/**
 * Band-limit cues of the long-term spectrum of the speech frames.
 *
 * @example
 * bandLimitCues(longTermSpectrum(spectrum, isSpeech)).edge; // ≈ 1 for full-band, 0.5 for speech cut at 4 kHz
 */
export function bandLimitCues(spectrum: LongTermSpectrum): BandLimitCues {
  const { power } = spectrum;
  let peak = 0;
  for (const p of power) peak = Math.max(peak, p);
  // Smooth over 5 bins (~150 Hz) so that one harmonic does not set the edge.
  const floor = peak * 10 ** (-EDGE_DROP_DB / 10);
  let edgeBin = 0;
  for (let k = 2; k < power.length - 2; k++) {
    const smooth =
      ((power[k - 2] ?? 0) + (power[k - 1] ?? 0) + (power[k] ?? 0) + (power[k + 1] ?? 0) + (power[k + 2] ?? 0)) / 5;
    if (smooth > floor) edgeBin = k;
  }
  return {
    high4to8: bandRatio(spectrum, [4000, 8000], [300, 4000]),
    high6to8: bandRatio(spectrum, [6000, 8000], [300, 4000]),
    edge: power.length > 1 ? edgeBin / (power.length - 1) : 0,
  };
}

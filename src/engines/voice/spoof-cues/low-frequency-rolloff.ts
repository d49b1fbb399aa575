/**
 * Loudspeaker low-frequency roll-off (replay cue): small drivers reproduce little below 150–500 Hz, so a
 * replayed voice loses its fundamental and first harmonics relative to the low formant region.
 */
import { bandRatio, type LongTermSpectrum } from './long-term-spectrum.js';

/**
 * log10 power ratio of 60–250 Hz to 300–1000 Hz in the speech frames' long-term spectrum: lower after a
 * loudspeaker's roll-off.
 *
 * @example
 * lowFrequencyRolloff(longTermSpectrum(spectrum, isSpeech)); // e.g. −0.3 direct, −1.5 through a small speaker
 */
export function lowFrequencyRolloff(spectrum: LongTermSpectrum): number {
  return bandRatio(spectrum, [60, 250], [300, 1000]);
}

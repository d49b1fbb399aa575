/**
 * Level of the fundamental (replay cue). A loudspeaker small enough to hold rolls off below 150-500 Hz, so a
 * replayed voice loses its fundamental (F0 ~85-250 Hz) against its next harmonics; a microphone in front of
 * the talker keeps it. Read relative to the voice's own harmonics, at the voice's own F0, this says what the
 * fixed-band ratio (low-frequency-rolloff.ts) cannot: a low voice's F0 and a high voice's lie in different
 * bands, and the band ratio also moves with the first formant.
 */
import { median } from '../../../lib/median.js';
import { HARMONICS, type HarmonicFrames } from './harmonic-frames.js';

/** Harmonics 2..OVER the fundamental is compared with. */
const OVER = 4;
/** Floor under a harmonic's power: a digitally silent frame gives a finite ratio. */
const POWER_FLOOR = 1e-20;

/**
 * Median over voiced frames of the fundamental's power over the mean power of harmonics 2-4, in dB: about
 * +3 for read speech into a close microphone, below -10 through a small loudspeaker's roll-off.
 *
 * @example
 * const frames = harmonicFrames(speech, { periods: harmonicity(speech).periods, frame: PITCH_FRAME, hop: PITCH_HOP });
 * fundamentalLevel(frames); // e.g. 3.0 close-talked, -12 replayed from a phone
 */
export function fundamentalLevel(frames: HarmonicFrames): number {
  if (frames.count === 0) return 0;
  const levels = new Float64Array(frames.count);
  for (let f = 0; f < frames.count; f++) {
    const power = (k: number): number =>
      (frames.re[f * HARMONICS + k - 1] ?? 0) ** 2 + (frames.im[f * HARMONICS + k - 1] ?? 0) ** 2;
    let over = 0;
    for (let k = 2; k <= OVER; k++) over += power(k) / (OVER - 1);
    levels[f] = 10 * Math.log10((power(1) + POWER_FLOOR) / (over + POWER_FLOOR));
  }
  return median(levels, 'upper');
}

/**
 * Reverberation tail (replay cue): a room between loudspeaker and microphone smears every offset, so the
 * level can no longer fall fast. Direct close-talk speech drops by tens of dB within 50 ms at word ends;
 * with a reverberation time T60 the drop over 50 ms is bounded by about 60·0.05/T60 dB.
 */
import { quantile } from './frame-levels.js';

/** Frames (10 ms) over which the fall is measured. */
const SPAN = 5;
/** Only frames within this many dB of the loud frames start a fall (noise frames say nothing). */
const START_WITHIN_DB = 30;

/**
 * The steep end of the level falls: the 5th percentile of (level 50 ms later − level now) over frames
 * that start loud, in dB. More negative = drier; a reverberant replay raises it towards 0.
 *
 * @param levelsDb per-frame levels of the whole sample (frameLevelsDb; not silence-trimmed: trimming
 *   would splice offsets away)
 * @example
 * reverberationTail(frameLevelsDb(spectrum)); // e.g. −28 dry, −12 after a reverberant room
 */
export function reverberationTail(levelsDb: Float64Array): number {
  if (levelsDb.length <= SPAN) return 0;
  const loud = quantile(levelsDb, 0.95);
  const falls: number[] = [];
  for (let f = 0; f + SPAN < levelsDb.length; f++) {
    const now = levelsDb[f] ?? 0;
    if (now < loud - START_WITHIN_DB) continue;
    falls.push((levelsDb[f + SPAN] ?? 0) - now);
  }
  return falls.length === 0 ? 0 : quantile(falls, 0.05);
}

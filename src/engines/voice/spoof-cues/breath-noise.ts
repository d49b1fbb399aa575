/**
 * Pause noise (synthetic-speech cue, "missing breath noise"): between a live speaker's words there is
 * breath, lip noise and the room, a floor some 30–60 dB under the voice; synthesisers write near or exact
 * digital silence there. Measured only on pauses inside the utterance and the quietest frames, never on
 * the length of leading or trailing silence (an artefact of how a sample was cut).
 */
import { quantile, SILENCE_DB } from './frame-levels.js';

export interface PauseNoiseCues {
  /** Median level of the non-speech frames between the first and last speech frame, dB under the speech median. */
  readonly pauseLevel: number;
  /** The 2nd-percentile frame level of the whole sample, dB under the speech median. */
  readonly floor: number;
}

/**
 * Pause-noise cues from per-frame levels and a per-frame speech flag.
 *
 * @param levelsDb per-frame levels (frameLevelsDb of the whole sample)
 * @param isSpeech whether frame f lies in speech (the voice activity, mapped to these frames)
 * @example
 * pauseNoise(levels, (f) => vad[f] === 1); // e.g. { pauseLevel: -35, floor: -50 } live, -80/-100 for TTS
 */
export function pauseNoise(levelsDb: Float64Array, isSpeech: (frame: number) => boolean): PauseNoiseCues {
  const speech: number[] = [];
  let first = -1;
  let last = -1;
  for (let f = 0; f < levelsDb.length; f++) {
    if (!isSpeech(f)) continue;
    speech.push(levelsDb[f] ?? SILENCE_DB);
    if (first < 0) first = f;
    last = f;
  }
  const reference = speech.length > 0 ? quantile(speech, 0.5) : quantile(levelsDb, 0.9);
  const pauses: number[] = [];
  for (let f = Math.max(first, 0); f <= last; f++) if (!isSpeech(f)) pauses.push(levelsDb[f] ?? SILENCE_DB);
  // Without a pause inside the utterance, the quietest tenth of the frames stands in for it.
  const pauseLevel = pauses.length >= 3 ? quantile(pauses, 0.5) : quantile(levelsDb, 0.1);
  const floor = quantile(levelsDb, 0.02);
  return {
    pauseLevel: Number.isFinite(pauseLevel - reference) ? pauseLevel - reference : 0,
    floor: Number.isFinite(floor - reference) ? floor - reference : 0,
  };
}

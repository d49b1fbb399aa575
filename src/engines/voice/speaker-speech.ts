import { speechSamples, type SpeechActivity } from './voice-activity.js';

/**
 * Voice-activity frames kept on each side of speech for the speaker templates (8 × 32 ms = 256 ms). The VAD
 * switches on a frame or two into a word and off at its tail, so its bare speech frames cut the onsets and
 * releases of short words: on ten-digit phrases (FSDD) the V600 EER went 3.3% → 1.7% with this margin
 * (reports/voice-verification.md); the speaker front end's own energy gate drops what is silent in it.
 */
export const SPEAKER_SPEECH_MARGIN_FRAMES = 8;

/**
 * The samples a speaker template is computed from: the speech frames of a sample widened by
 * {@link SPEAKER_SPEECH_MARGIN_FRAMES} on each side, concatenated. (How much speech a sample holds, for
 * `minVoiceLengthSeconds`, stays the VAD's `speechSeconds`.)
 *
 * @example
 * const vector = speakerVector(speakerSpeech(audio.samples, await detectSpeech(audio.samples)), 'V600');
 */
export function speakerSpeech(
  samples: Float32Array,
  activity: SpeechActivity,
  marginFrames = SPEAKER_SPEECH_MARGIN_FRAMES,
): Float32Array {
  const { speech } = activity;
  const widened = new Uint8Array(speech.length);
  for (let f = 0; f < speech.length; f++) {
    if (speech[f] !== 1) continue;
    const last = Math.min(speech.length - 1, f + marginFrames);
    for (let g = Math.max(0, f - marginFrames); g <= last; g++) widened[g] = 1;
  }
  return speechSamples(samples, { ...activity, speech: widened });
}

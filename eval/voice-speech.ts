/**
 * Speech of evaluation files the way the voice services get it: decodeVoiceSample (any rate to 16 kHz mono),
 * the Silero voice activity detector, its speech frames with a margin concatenated (speaker-speech.ts).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { speakerSpeech } from '../src/engines/voice/speaker-speech.js';
import { detectSpeech } from '../src/engines/voice/voice-activity.js';
import { decodeVoiceSample } from '../src/engines/voice/voice-decoding.js';
import type { SpeakerSpeech } from './speaker-model-training.js';

/**
 * The decoded 16 kHz samples of a file.
 *
 * @example
 * const samples = await decodedFile('../shared/data/voice/dev/fsdd/0_george_0.wav');
 */
export async function decodedFile(path: string): Promise<Float32Array> {
  return (await decodeVoiceSample(readFileSync(path))).samples;
}

/**
 * What a speaker template is computed from in 16 kHz audio (speaker-speech.ts: the VAD speech frames with a
 * margin), and the VAD's seconds of speech (what the service compares with its minimum).
 *
 * @example
 * const { speech, speechSeconds } = await speechOf(await decodedFile(path));
 */
export async function speechOf(samples: Float32Array): Promise<{ speech: Float32Array; speechSeconds: number }> {
  const activity = await detectSpeech(samples);
  return { speech: speakerSpeech(samples, activity), speechSeconds: activity.speechSeconds };
}

/**
 * The LibriSpeech background folder (`<speaker>-<chapter>-<utterance>.wav`, one utterance per speaker) as
 * speech per speaker, in file-name order.
 *
 * @example
 * const background = await backgroundSpeech('../shared/data/voice/background');
 */
export async function backgroundSpeech(dir: string): Promise<SpeakerSpeech[]> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.wav'))
    .sort();
  const out: SpeakerSpeech[] = [];
  for (const file of files) {
    const speaker = `ls-${basename(file).split('-')[0] ?? file}`;
    out.push({ speaker, speech: (await speechOf(await decodedFile(join(dir, file)))).speech });
  }
  return out;
}

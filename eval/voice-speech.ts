/**
 * Speech of evaluation files the way the voice services get it: decodeVoiceSample (any rate to 16 kHz mono),
 * the Silero voice activity detector, its speech frames concatenated.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { detectSpeech, speechSamples } from '../src/engines/voice/voice-activity.js';
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
 * The speech samples (VAD speech frames) of 16 kHz audio.
 *
 * @example
 * const speech = await speechOf(await decodedFile(path));
 */
export async function speechOf(samples: Float32Array): Promise<Float32Array> {
  return speechSamples(samples, await detectSpeech(samples));
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
    out.push({ speaker, speech: await speechOf(await decodedFile(join(dir, file))) });
  }
  return out;
}

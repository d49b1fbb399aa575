/**
 * `npm run eval -- train-voice <background dir> [--no-write]`
 *
 * Trains the speaker templates' parameters (V600 LDA, V900 UBM, then the score-normalisation cohort: the
 * templates of every training utterance under them; eval/speaker-model-training.ts) on every
 * utterance of a LibriSpeech background folder (`<speaker>-<chapter>-<utterance>.wav`; here
 * ../shared/data/voice/background, 251 speakers of train-clean-100, one utterance each), read the way the
 * service reads samples (decodeVoiceSample, Silero VAD speech frames), and writes
 * src/engines/voice/speaker-model.json with its provenance and the corpus attribution. FSDD (the dev set) is
 * not used. Held-out accuracy and the calibration tables come from `npm run eval -- voice-verification`.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SPEAKER_TRAINING, trainSpeakerModel } from './speaker-model-training.js';
import { backgroundSpeech } from './voice-speech.js';

export const MODEL_PATH = 'src/engines/voice/speaker-model.json';

export const LIBRISPEECH_ATTRIBUTION =
  'LibriSpeech (V. Panayotov, G. Chen, D. Povey, S. Khudanpur, "LibriSpeech: an ASR corpus based on public domain ' +
  'audio books", ICASSP 2015), train-clean-100, CC BY 4.0 (https://www.openslr.org/12); utterances as stored by ' +
  'resemble-ai/Resemblyzer (Apache-2.0), converted to 16 kHz WAV and cut to their first 5.5 s';

/**
 * Trains and writes the speaker model.
 *
 * @example
 * await trainVoice(['../shared/data/voice/background']);
 */
export async function trainVoice(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { 'no-write': { type: 'boolean', default: false } },
  });
  const [dir] = positionals;
  if (dir === undefined) throw new Error('usage: npm run eval -- train-voice <background dir> [--no-write]');
  const started = Date.now();
  const data = await backgroundSpeech(dir);
  const speakers = new Set(data.map((d) => d.speaker)).size;
  console.log(
    `${data.length} utterances of ${speakers} speakers read (decode + VAD) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  const { json } = trainSpeakerModel(
    data,
    {
      dataset: `LibriSpeech train-clean-100 background folder: ${data.length} utterances, ${speakers} speakers (Silero VAD speech frames with a 256 ms margin: speaker-speech.ts)`,
      licence: 'CC BY 4.0',
      attribution: LIBRISPEECH_ATTRIBUTION,
      trainingSpeakers: speakers,
      command: `npm run eval -- train-voice ${dir}`,
      date: new Date().toISOString().slice(0, 10),
      notes: [
        `V600: LDA on utterance statistics of every utterance and its halves, thirds and quarters (within-speaker variation from one utterance per speaker), within-speaker scatter shrunk by ${SPEAKER_TRAINING.ldaShrinkage} of its mean diagonal.`,
        `V900: ${SPEAKER_TRAINING.ubmComponents}-component diagonal UBM by EM with splitting, on every k-th CMVN-normalised MFCC+Δ frame (${SPEAKER_TRAINING.ubmFrames} frames).`,
        `Cohort (score normalisation, score-normalisation.ts): the V600 and V900 templates of the ${data.length} whole training utterances under this model, int8 rows with a per-row scale.`,
        'Not trained on the Free Spoken Digit Dataset (the dev/eval set).',
      ],
    },
    { log: (line) => console.log(line) },
  );
  console.log(`trained in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (values['no-write']) return;
  writeFileSync(MODEL_PATH, `${JSON.stringify(json)}\n`);
  console.log(`wrote ${MODEL_PATH}`);
}

/**
 * `npm run eval -- <suite> <dir> [options]`: accuracy and speed evaluations on labelled data, each
 * printing a table and writing its report under reports/.
 *
 * Suites: `analysis` (face-quality metrics: eval/analysis.ts), `faces` (face recognition: eval/faces.ts),
 * `face-size` (matching against the pixels between the eyes, the subject rule's size floor: eval/face-size.ts),
 * `liveness` (eval/liveness.ts), `liveness-attacks` (replayed stills against the multi-frame signals:
 * eval/liveness-attacks.ts), `train-pad` (trains and cross-validates the presentation-attack classifier:
 * eval/train-pad.ts), `calibrate-pad` (compares the PAD models and calibrates the ONNX one: eval/calibrate-pad.ts),
 * `voice-spoof` / `train-voice-spoof` (voice spoof detection leave-one-attack-out; the second also writes the
 * model: eval/train-voice-spoof.ts), `voice-spoof-external` (the spoof model against attacks never trained or
 * chosen on: eval/voice-spoof-external.ts), `documents` (MRZ location, reading and repair on document photos:
 * eval/documents.ts), `train-ocrb` (trains the MRZ's OCR-B cell classifier, no data folder: eval/train-ocrb.ts),
 * `voice-activity` (the voice activity detector's speech length against labels.csv's
 * speech_s: eval/voice-activity.ts), `train-voice` (trains the speaker templates' model: eval/train-voice.ts),
 * `voice-verification` (speaker verification per algorithm and sample type, writes the voice calibration tables:
 * eval/voice-verification.ts), `voice` (voice-activity, voice-verification and voice-spoof on one voice folder).
 */
import { evalAnalysis } from './analysis.js';
import { calibratePad } from './calibrate-pad.js';
import { evalDocuments } from './documents.js';
import { evalFaceSize } from './face-size.js';
import { evalFaces } from './faces.js';
import { evalLiveness } from './liveness.js';
import { evalLivenessAttacks } from './liveness-attacks.js';
import { trainOcrb } from './train-ocrb.js';
import { trainPad } from './train-pad.js';
import { evalVoiceSpoof, trainVoiceSpoof } from './train-voice-spoof.js';
import { evalVoiceSpoofExternal } from './voice-spoof-external.js';
import { evalVoiceActivity } from './voice-activity.js';
import { trainVoice } from './train-voice.js';
import { evalVoiceVerification } from './voice-verification.js';

/** The whole voice evaluation on one folder (../shared/data/voice): each part with its defaults. */
async function evalVoice(argv: string[]): Promise<void> {
  const [dir] = argv;
  if (dir === undefined) throw new Error('usage: npm run eval -- voice <voice dir>');
  for (const part of [evalVoiceActivity, evalVoiceVerification, evalVoiceSpoof]) await part([dir]);
}

const SUITES: Readonly<Record<string, (argv: string[]) => Promise<void>>> = {
  analysis: evalAnalysis,
  faces: evalFaces,
  'face-size': evalFaceSize,
  liveness: evalLiveness,
  'liveness-attacks': evalLivenessAttacks,
  'train-pad': trainPad,
  'calibrate-pad': calibratePad,
  documents: evalDocuments,
  'train-ocrb': trainOcrb,
  'voice-spoof': evalVoiceSpoof,
  'train-voice-spoof': trainVoiceSpoof,
  'voice-spoof-external': evalVoiceSpoofExternal,
  'voice-activity': evalVoiceActivity,
  'train-voice': trainVoice,
  'voice-verification': evalVoiceVerification,
  voice: evalVoice,
};

const [suite, ...rest] = process.argv.slice(2);
const run = suite ? SUITES[suite] : undefined;
if (!run) {
  console.error(`usage: npm run eval -- <${Object.keys(SUITES).join('|')}> <dir> [options]`);
  process.exit(2);
}
await run(rest);

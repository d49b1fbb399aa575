/**
 * `npm run eval -- <suite> <dir> [options]`: accuracy and speed evaluations on labelled data, each
 * printing a table and writing its report under reports/.
 *
 * Suites: `analysis` (face-quality metrics: eval/analysis.ts), `faces` (face recognition: eval/faces.ts),
 * `face-size` (matching against the pixels between the eyes, the subject rule's size floor: eval/face-size.ts),
 * `liveness` (eval/liveness.ts), `liveness-attacks` (replayed stills against the multi-frame signals:
 * eval/liveness-attacks.ts), `train-pad` (trains and cross-validates the presentation-attack classifier:
 * eval/train-pad.ts), `calibrate-pad` (compares the PAD models and calibrates the ONNX one: eval/calibrate-pad.ts),
 * `documents` (MRZ location, reading and repair on document photos: eval/documents.ts).
 */
import { evalAnalysis } from './analysis.js';
import { calibratePad } from './calibrate-pad.js';
import { evalDocuments } from './documents.js';
import { evalFaceSize } from './face-size.js';
import { evalFaces } from './faces.js';
import { evalLiveness } from './liveness.js';
import { evalLivenessAttacks } from './liveness-attacks.js';
import { trainPad } from './train-pad.js';

const SUITES: Readonly<Record<string, (argv: string[]) => Promise<void>>> = {
  analysis: evalAnalysis,
  faces: evalFaces,
  'face-size': evalFaceSize,
  liveness: evalLiveness,
  'liveness-attacks': evalLivenessAttacks,
  'train-pad': trainPad,
  'calibrate-pad': calibratePad,
  documents: evalDocuments,
};

const [suite, ...rest] = process.argv.slice(2);
const run = suite ? SUITES[suite] : undefined;
if (!run) {
  console.error(`usage: npm run eval -- <${Object.keys(SUITES).join('|')}> <dir> [options]`);
  process.exit(2);
}
await run(rest);

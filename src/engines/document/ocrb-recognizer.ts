import modelJson from './ocrb-model.json' with { type: 'json' };
import type { GrayImage } from './gray-image.js';
import { CELL_HEIGHT, CELL_WIDTH, segmentLine } from './ocrb-cells.js';
import {
  alternativesFrom,
  MRZ_ALPHABET,
  type CharacterAlternative,
  type RecognizedLine,
} from './paddle-text-recognizer.js';

/** The OCR-B cell classifier: one hidden ReLU layer, softmax over MRZ_ALPHABET. Weights row-major. */
export interface OcrbModel {
  readonly alphabet: string;
  readonly cellWidth: number;
  readonly cellHeight: number;
  readonly hidden: number;
  /** hidden × (cellWidth · cellHeight) */
  readonly w1: readonly number[];
  readonly b1: readonly number[];
  /** alphabet.length × hidden */
  readonly w2: readonly number[];
  readonly b2: readonly number[];
}

/** The model file is not an OCR-B cell classifier this code can run. */
export class OcrbModelError extends Error {
  override readonly name = 'OcrbModelError';
}

const isNumberArray = (v: unknown, length: number): v is number[] =>
  Array.isArray(v) && v.length === length && v.every((x) => typeof x === 'number' && Number.isFinite(x));

/**
 * Checks a loaded model file (ocrb-model.json, written by `npm run eval -- train-ocrb`) field by field:
 * the alphabet and cell size this code segments for, and every weight array of the size the layers need.
 *
 * @example
 * const model = parseOcrbModel(JSON.parse(text), 'ocrb-model.json');
 * model.hidden; // 96
 * @throws {OcrbModelError} naming the first field that does not fit
 */
export function parseOcrbModel(value: unknown, source: string): OcrbModel {
  const fail = (what: string) => new OcrbModelError(`${source}: ${what}`);
  if (typeof value !== 'object' || value === null) throw fail('not an object');
  const v: Record<string, unknown> = { ...value };
  if (v.alphabet !== MRZ_ALPHABET) throw fail(`alphabet is not ${MRZ_ALPHABET}`);
  if (v.cellWidth !== CELL_WIDTH || v.cellHeight !== CELL_HEIGHT)
    throw fail(`cell size is not ${CELL_WIDTH}×${CELL_HEIGHT}`);
  const hidden = v.hidden;
  if (typeof hidden !== 'number' || !Number.isInteger(hidden) || hidden < 1 || hidden > 4096)
    throw fail('hidden is not a layer size');
  const inputs = CELL_WIDTH * CELL_HEIGHT;
  const classes = MRZ_ALPHABET.length;
  const { w1, b1, w2, b2 } = v;
  if (!isNumberArray(w1, hidden * inputs)) throw fail(`w1 is not ${hidden}×${inputs} numbers`);
  if (!isNumberArray(b1, hidden)) throw fail(`b1 is not ${hidden} numbers`);
  if (!isNumberArray(w2, classes * hidden)) throw fail(`w2 is not ${classes}×${hidden} numbers`);
  if (!isNumberArray(b2, classes)) throw fail(`b2 is not ${classes} numbers`);
  return { alphabet: MRZ_ALPHABET, cellWidth: CELL_WIDTH, cellHeight: CELL_HEIGHT, hidden, w1, b1, w2, b2 };
}

/**
 * Class probabilities (softmax over MRZ_ALPHABET) of one normalised cell.
 *
 * @example
 * const p = classifyCell(model, cell); // Float64Array(37), sums to 1
 */
export function classifyCell(model: OcrbModel, cell: Float32Array): Float64Array {
  const inputs = model.cellWidth * model.cellHeight;
  const h = new Float64Array(model.hidden);
  for (let j = 0; j < model.hidden; j++) {
    let s = model.b1[j] ?? 0;
    const row = j * inputs;
    for (let i = 0; i < inputs; i++) s += (model.w1[row + i] ?? 0) * (cell[i] ?? 0);
    h[j] = s > 0 ? s : 0;
  }
  const classes = model.alphabet.length;
  const out = new Float64Array(classes);
  let max = -Infinity;
  for (let c = 0; c < classes; c++) {
    let s = model.b2[c] ?? 0;
    const row = c * model.hidden;
    for (let j = 0; j < model.hidden; j++) s += (model.w2[row + j] ?? 0) * (h[j] ?? 0);
    out[c] = s;
    if (s > max) max = s;
  }
  let sum = 0;
  for (let c = 0; c < classes; c++) sum += out[c] = Math.exp((out[c] ?? 0) - max);
  for (let c = 0; c < classes; c++) out[c] = (out[c] ?? 0) / sum;
  return out;
}

/** Character counts of MRZ lines: TD3 and MRV-A 44, TD2, MRV-B and the French card 36, TD1 30. */
export function mrzLineLengths(lineCount: number): readonly number[] {
  return lineCount === 3 ? [30] : [44, 36];
}

/**
 * Our own OCR-B recogniser for MRZ lines: a line is cut into its fixed-pitch cells (ocrb-cells.ts) and
 * each cell classified by a small network trained on the real OCR-B typeface (ocrb-model.json; eval/
 * train-ocrb.ts). Each candidate length is tried and the one read with the highest mean probability kept.
 * About 1 ms a line against ~110 ms for PP-OCRv4; the reader uses it first and PaddleOCR when its read
 * fails the check digits (read-document.ts).
 *
 * @example
 * const ocrb = OcrbRecognizer.load();
 * ocrb.recognize(lineImage, [44, 36]); // { text: 'P<UTOERIKSSON<<ANNA<MARIA<<<…', confidences: [0.99, …] }
 */
export class OcrbRecognizer {
  private constructor(private readonly model: OcrbModel) {}

  /** @throws {OcrbModelError} when the shipped model file is damaged */
  static load(): OcrbRecognizer {
    return new OcrbRecognizer(parseOcrbModel(modelJson, 'src/engines/document/ocrb-model.json'));
  }

  static fromModel(model: OcrbModel): OcrbRecognizer {
    return new OcrbRecognizer(model);
  }

  /** Reads a line as each length in `lengths`; empty text when no length segments. */
  recognize(line: GrayImage, lengths: readonly number[]): RecognizedLine {
    let best: RecognizedLine = { text: '', confidences: [], alternatives: [] };
    let bestMean = -1;
    for (const length of lengths) {
      const cut = segmentLine(line, length);
      if (!cut) continue;
      let text = '';
      const confidences: number[] = [];
      const alternatives: CharacterAlternative[][] = [];
      for (const cell of cut.cells) {
        const p = classifyCell(this.model, cell);
        let c = 0;
        for (let k = 1; k < p.length; k++) if ((p[k] ?? 0) > (p[c] ?? 0)) c = k;
        text += this.model.alphabet[c] ?? '';
        confidences.push(p[c] ?? 0);
        alternatives.push(alternativesFrom(p, c));
      }
      const mean = confidences.reduce((a, b) => a + b, 0) / confidences.length;
      if (mean > bestMean) {
        bestMean = mean;
        best = { text, confidences, alternatives };
      }
    }
    return best;
  }
}

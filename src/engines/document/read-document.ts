import sharp from 'sharp';
import type { Quad } from './document-geometry.js';
import { decodeDocumentImage } from './document-image.js';
import { grayOf, type GrayImage, type RgbImage } from './gray-image.js';
import { locateMrzBands, type MrzBand } from './mrz-band-locator.js';
import { mrzLineImages } from './mrz-line-images.js';
import { readMrzLines, type MrzRead } from './mrz-read.js';
import { withMatsAsync } from './mat-scope.js';
import type { OpenCv } from './opencv-runtime.js';
import { orientBand } from './oriented-band.js';
import type { PaddleTextRecognizer } from './paddle-text-recognizer.js';
import { cropPage } from './page-crop.js';
import {
  documentSizeOf,
  layoutFromShape,
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
}

/** The page found around the MRZ. */
export interface DocumentPage {
  readonly layout: PageLayout;
  readonly size: DocumentSize;
  /** Corners in the decoded image (top-left, top-right, bottom-right, bottom-left of the upright page). */
  readonly quad: Quad;
  /** The page cropped, deskewed and upright, JPEG. */
  readonly jpeg: Uint8Array;
  readonly width: number;
  readonly height: number;
}

export interface DocumentTimings {
  readonly decodeMs: number;
  readonly locateMs: number;
  readonly ocrMs: number;
  readonly pageMs: number;
  readonly qualityMs: number;
  readonly totalMs: number;
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
  const started = performance.now();
  const image = await decodeDocumentImage(bytes);
  const gray = grayOf(image);
  const decoded = performance.now();
  const candidates = locateMrzBands(models.cv, gray);
  const located = performance.now();
  const found = await readBestBand(models, gray, candidates);
  const read = performance.now();
  let page: DocumentPage | null = null;
  let pageImage: RgbImage | null = null;
  if (found?.read) {
    const layout = found.read.layout ?? layoutFromShape(found.band);
    const quad = pageQuadFromBand(found.band, layout);
    pageImage = cropPage(models.cv, image, quad, PAGE_IMAGE_WIDTH);
    const jpeg = await sharp(pageImage.data, { raw: { width: pageImage.width, height: pageImage.height, channels: 3 } })
      .jpeg({ quality: 90 })
      .toBuffer();
    page = {
      layout,
      size: documentSizeOf(layout),
      quad,
      jpeg: new Uint8Array(jpeg),
      width: pageImage.width,
      height: pageImage.height,
    };
  }
  const paged = performance.now();
  const quality = pageQuality({
    band: found?.located ?? null,
    lineImages: found?.lineImages ?? null,
    pageQuad: page?.quad ?? null,
    page: pageImage,
    image,
  });
  const done = performance.now();
  return {
    width: image.width,
    height: image.height,
    band: found?.band ?? null,
    mrz: found?.read ?? null,
    page,
    quality,
    timings: {
      decodeMs: decoded - started,
      locateMs: located - decoded,
      ocrMs: read - located,
      pageMs: paged - read,
      qualityMs: done - paged,
      totalMs: done - started,
    },
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

/**
 * The first candidate band that reads as an MRZ, in the direction that reads best: the band as located
 * first, turned by 180° only when the first read is not a full valid MRZ. When none reads, the best
 * located band unread: a band too small or too blurred to read is what the quality checks must report.
 */
async function readBestBand(
  models: DocumentModels,
  gray: GrayImage,
  candidates: readonly MrzBand[],
): Promise<FoundBand | null> {
  if (candidates.length === 0) return null;
  const { cv } = models;
  return withMatsAsync(async (keep) => {
    const mat = keep(new cv.Mat(gray.height, gray.width, cv.CV_8UC1));
    mat.data.set(gray.data);
    for (const located of candidates) {
      let best: FoundBand | null = null;
      for (const reversed of [false, true]) {
        const band = orientBand(located, reversed);
        const lineImages = mrzLineImages(cv, mat, band);
        const read = await readMrzLines(models.recognizer, lineImages);
        if (read.plausible && (!best?.read || read.score > best.read.score)) best = { located, band, lineImages, read };
        if (best?.read?.complete) break;
      }
      if (best) return best;
    }
    const [first] = candidates;
    if (!first) return null;
    const band = orientBand(first, false);
    return { located: first, band, lineImages: mrzLineImages(cv, mat, band), read: null };
  });
}

import sharp from 'sharp';
import type { FaceEngine } from '../../engines/face/face-engine.js';
import { ImageDecodeError } from '../../engines/face/image-decoding.js';

/** Detection only: the portrait is cut, not embedded (a matcher embeds it as a probe). */
const NO_EMBEDDINGS = { views: [], description: false } as const;

/**
 * Around the detected face box, the share of the box added on each side, so the cut is a head-and-shoulders
 * portrait as printed (ICAO photos show the face at 70–80 % of the height) that a face detector finds again.
 */
const MARGIN_X = 0.35;
const MARGIN_TOP = 0.45;
const MARGIN_BOTTOM = 0.35;

/**
 * The printed portrait of a document: the largest face the face engine finds in the first image that has
 * one (the cropped pages first, then the pages as sent, for an ID card's front without an MRZ), cut out
 * with a margin as JPEG. Null when no image shows a face.
 *
 * @example
 * const jpeg = await opticalPortrait(faceEngine, [page.jpeg]); // a face-matching probe
 */
export async function opticalPortrait(engine: FaceEngine, images: readonly Uint8Array[]): Promise<Buffer | null> {
  for (const image of images) {
    let analysis;
    try {
      analysis = await engine.analyze(image, NO_EMBEDDINGS);
    } catch (error) {
      if (error instanceof ImageDecodeError) continue;
      throw error;
    }
    const face = analysis.faces.reduce<(typeof analysis.faces)[number] | undefined>(
      (largest, f) => (largest === undefined || f.box[2] * f.box[3] > largest.box[2] * largest.box[3] ? f : largest),
      undefined,
    );
    if (face === undefined) continue;
    const [x, y, w, h] = face.box;
    const left = Math.max(0, Math.floor(x - w * MARGIN_X));
    const top = Math.max(0, Math.floor(y - h * MARGIN_TOP));
    const right = Math.min(analysis.width, Math.ceil(x + w * (1 + MARGIN_X)));
    const bottom = Math.min(analysis.height, Math.ceil(y + h * (1 + MARGIN_BOTTOM)));
    if (right - left < 8 || bottom - top < 8) continue;
    // The engine's box is in its decoded frame (upright, scaled to its longest side): cut from the same frame.
    return sharp(image)
      .autoOrient()
      .resize({ width: analysis.width, height: analysis.height, fit: 'fill' })
      .extract({ left, top, width: right - left, height: bottom - top })
      .jpeg({ quality: 92 })
      .toBuffer();
  }
  return null;
}

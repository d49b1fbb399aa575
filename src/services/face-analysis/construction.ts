import sharp from 'sharp';
import {
  areaSupersampling,
  eyeAlignment,
  sampleRegion,
  type FaceKeyPoints,
} from '../../engines/face/face-alignment.js';
import { decodeImage, DEFAULT_DECODE_OPTIONS } from '../../engines/face/image-decoding.js';
import type { Rotation } from '../../engines/face/rotation.js';
import type { FaceProfile } from './profile.js';
import { constructionEyes } from './profile.js';

/**
 * The constructed (token) image of a face per the profile's construction geometry: rotated so the
 * eyes are level, scaled so they are the profile's distance apart, and placed at its eye line and
 * centre, in an output of the profile's size (JPEG, quality 95). Outside the source image the edge
 * pixels repeat.
 *
 * @example
 * const jpeg = await constructFace(imageBytes, 0, face.keyPoints, profile);
 */
export async function constructFace(
  imageBytes: Uint8Array,
  rotation: Rotation,
  points: Pick<FaceKeyPoints, 'rightEye' | 'leftEye'>,
  profile: FaceProfile,
): Promise<Buffer> {
  const image = await decodeImage(imageBytes, { ...DEFAULT_DECODE_OPTIONS, rotation });
  const { width, height } = profile.construction;
  const transform = eyeAlignment(points, constructionEyes(profile.construction));
  // Area-average when the output is smaller than the face in the source, so it does not alias.
  const pixels = sampleRegion(image, transform, width, height, false, areaSupersampling(transform));
  return sharp(Buffer.from(Uint8Array.from(pixels, (v) => Math.round(v))), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();
}

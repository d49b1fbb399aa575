/**
 * The photos the HTTP benchmarks send: faces cut from the photos that ship with `@vladmandic/face-api`
 * (test/helpers/faces.ts), in a mix of the sizes clients send, from a phone selfie to a ~5 MP camera
 * JPEG (made by upscaling with sharp).
 */
import { onCanvas, portrait, selfieFrame, type Person } from '../test/helpers/faces.js';

export interface BenchPhoto {
  readonly person: Person;
  /** e.g. '480x640'. */
  readonly size: string;
  readonly jpeg: Buffer;
  readonly base64: string;
}

const PEOPLE: readonly Person[] = ['anna', 'bella', 'carla'];

/** The sizes, smallest first: a selfie frame, a portrait, a 1280×960 photo and a 2240×2240 (5.0 MP) JPEG. */
export const PHOTO_SIZES = ['480x640', '720x720', '1280x960', '2240x2240'] as const;

async function photo(person: Person, size: (typeof PHOTO_SIZES)[number]): Promise<Buffer> {
  switch (size) {
    case '480x640':
      // A tighter crop than the default: carla's default one shows the edge of her neighbour's face.
      return selfieFrame(person, {}, { margin: 0.25 });
    case '720x720':
      return portrait(person, { width: 720 });
    case '1280x960':
      return onCanvas(await portrait(person, { width: 640 }), { width: 1280, height: 960, grey: 120 });
    case '2240x2240':
      // The face's 578-pixel crop upscaled ~3.9x: a 5.0 MP JPEG of about the bytes a phone camera writes.
      return portrait(person, { width: 2240, quality: 92 });
  }
}

/**
 * Every person at every size, in the order people × sizes.
 *
 * @example
 * const photos = await benchPhotos(); // 12 photos
 */
export async function benchPhotos(): Promise<BenchPhoto[]> {
  const out: BenchPhoto[] = [];
  for (const person of PEOPLE) {
    for (const size of PHOTO_SIZES) {
      const jpeg = await photo(person, size);
      out.push({ person, size, jpeg, base64: jpeg.toString('base64') });
    }
  }
  return out;
}

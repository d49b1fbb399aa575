import { ImageDecodeError } from '../../engines/face/image-decoding.js';

/**
 * An image a request sent in `field` that the face engine could not decode. The one error mapping
 * (to-api-error.ts) answers it with a 400 -6 whose description names the field.
 */
export class RequestImageError extends Error {
  override name = 'RequestImageError';
  constructor(
    readonly field: string,
    cause: ImageDecodeError,
  ) {
    super(`${field}: ${cause.message}`, { cause });
  }
}

/**
 * Awaits an engine call on the image a request sent in `field`: an undecodable image becomes a
 * {@link RequestImageError} naming the field; any other failure passes unchanged.
 *
 * @example
 * const analysis = await fromRequestImage('probe.VISIBLE_FRONTAL', engine.analyze(bytes, embeddings));
 * // not an image: 400 {"code": -6, "description": "probe.VISIBLE_FRONTAL: data is not a supported image ..."}
 */
export async function fromRequestImage<T>(field: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ImageDecodeError) throw new RequestImageError(field, error);
    throw error;
  }
}

/** Face-liveness 400 codes (spec Doc 2, errors). */
export const LivenessCode = {
  invalidValue: -6,
  imageDataInvalid: -7,
  imageSizeInvalid: -8,
  minSizeRange: 118,
  maxSizeRange: 119,
  minAboveMax: 120,
  sensitivityRange: 121,
  granularityRange: 122,
  interframeTime: 125,
  unparsableImage: 139,
  timestampInvalid: 141,
  imageFormat: 152,
  sizesDiffer: 153,
  detectionMode: 155,
  rotation: 312,
} as const;

/**
 * A liveness request that cannot be assessed as sent (bad workflow, frame, timestamp, ...). `code` is
 * the face-liveness service's 400 code (spec Doc 2 A); the server renders it, other callers (the
 * onboarding service) map it as they need. The message names the field and never holds frame data.
 */
export class LivenessInputError extends Error {
  override name = 'LivenessInputError';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

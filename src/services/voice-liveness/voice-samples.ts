import { decodeBase64 } from '../../crypto/base64.js';
import { VoiceSampleError } from '../../engines/voice/voice-sample-error.js';
import { ApiError } from '../../server/errors/api-error.js';

/** Voice liveness's own 400 codes (Doc 2, Errors: service D returns -1 to -9). */
export const VoiceLivenessCode = {
  /** A sample that does not decode (no supported format, broken, over 60 s). */
  invalidVoiceSample: -7,
  /** No samples, an empty list, or a sample without audio. */
  missingVoiceSamples: -8,
  /** A workflow other than alfa2, alfa4, alfa6. */
  invalidWorkflow: -9,
} as const;

/**
 * The bytes of the request's voice samples.
 *
 * @example
 * sampleBytes(body.voice.voiceSamples); // [Uint8Array(...), ...]
 * @throws {ApiError} 400 -8 for a missing or empty list; -5 for data that is not base64
 */
export function sampleBytes(voiceSamples: ReadonlyArray<{ data: string }> | undefined): Uint8Array[] {
  if (voiceSamples === undefined || voiceSamples.length === 0)
    throw new ApiError(
      400,
      VoiceLivenessCode.missingVoiceSamples,
      'missing voice samples: voice.voiceSamples must hold at least one sample',
    );
  return voiceSamples.map((sample, i) => decodeBase64(sample.data, `voice.voiceSamples[${i}].data`));
}

/**
 * The engine's work on the sample at `index`, with a sample it could not read answered in the spec's codes:
 * -8 for one without audio, -7 for the rest (no supported format, broken, over 60 s).
 *
 * @example
 * const measurement = await fromVoiceSample(0, engine.measure(bytes));
 * @throws {ApiError} 400 -7 or -8 naming the sample
 */
export async function fromVoiceSample<T>(index: number, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (!(error instanceof VoiceSampleError)) throw error;
    const where = `voice.voiceSamples[${index}]`;
    throw error.reason === 'empty'
      ? new ApiError(400, VoiceLivenessCode.missingVoiceSamples, `missing voice sample: ${where} holds no audio`)
      : new ApiError(400, VoiceLivenessCode.invalidVoiceSample, `invalid voice sample: ${where}: ${error.message}`);
  }
}

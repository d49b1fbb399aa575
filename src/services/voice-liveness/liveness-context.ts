import type { ServerKeyPair } from '../../crypto/server-key-pair.js';
import type { VoiceLivenessOutput } from '../../engines/voice/voice-liveness-analysis.js';
import type { VoiceMeasurement } from '../../engines/voice/voice-tasks.js';
import type { ServiceDependencies } from '../../server/service-definition.js';

/** The service name: the version route's. */
export const VOICE_LIVENESS = 'voice-liveness';

/** What voice liveness needs of the voice engine (its worker tasks `liveness` and `measure`). */
export interface VoiceLivenessEngine {
  /** One sample decoded, its speech found, gated and scored live or spoof. @throws {VoiceSampleError} */
  liveness(sample: Uint8Array): Promise<VoiceLivenessOutput>;
  /** One sample decoded and its speech measured. @throws {VoiceSampleError} */
  measure(sample: Uint8Array): Promise<VoiceMeasurement>;
}

/**
 * What the voice-liveness domain functions work with: the voice engine (started on first use) and the key
 * pair that opens this service's `*Encrypted` packages.
 */
export interface VoiceLivenessContext {
  engine(): VoiceLivenessEngine;
  /** The voice-liveness envelope pair: a package sealed for another purpose does not open here. */
  readonly envelopeKey: ServerKeyPair;
}

/**
 * Builds the voice-liveness context from the server's dependencies.
 *
 * @example
 * const liveness = voiceLivenessContext(deps);
 * await analyzeVoice(liveness, body);
 */
export function voiceLivenessContext(deps: ServiceDependencies): VoiceLivenessContext {
  return { engine: deps.voiceEngine, envelopeKey: deps.envelopeKeys.key('voice-liveness') };
}

import { decryptJsonEnvelope, type EnvelopeOpeningKey } from '../../crypto/envelope.js';
import type { EncryptedRequest } from '../../server/schemas/encrypted-request.js';
import { checkBody } from '../../server/validation.js';
import { VoiceLengthRequest, VoiceLivenessRequest } from './schemas.js';

/**
 * Opens an `/analyzeEncrypted` package (the `/analyze` body sealed for voice liveness) and checks it like a
 * plain body.
 *
 * @example
 * await analyzeVoice(liveness, openAnalyzePackage(liveness.envelopeKey, body));
 * @throws {EnvelopeError} for a package that does not open (another key or purpose, altered);
 *   {@link BodyValidationError} for a bad inside
 */
export function openAnalyzePackage(key: EnvelopeOpeningKey, body: EncryptedRequest): VoiceLivenessRequest {
  return checkBody<VoiceLivenessRequest>(VoiceLivenessRequest, decryptJsonEnvelope(body, key));
}

/**
 * Opens a `/calculateVoiceLengthEncrypted` package and checks it like a plain body.
 *
 * @example
 * await calculateVoiceLength(liveness, openVoiceLengthPackage(liveness.envelopeKey, body));
 */
export function openVoiceLengthPackage(key: EnvelopeOpeningKey, body: EncryptedRequest): VoiceLengthRequest {
  return checkBody<VoiceLengthRequest>(VoiceLengthRequest, decryptJsonEnvelope(body, key));
}

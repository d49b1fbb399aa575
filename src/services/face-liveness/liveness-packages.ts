import { decryptJsonEnvelope, type EnvelopeOpeningKey } from '../../crypto/envelope.js';
import type { EncryptedRequest } from '../../server/schemas/encrypted-request.js';
import { checkBody } from '../../server/validation.js';
import { ActiveLivenessRequest, FaceLivenessRequest, type EncryptedLivenessRequest } from './schemas.js';

/**
 * Opens an encrypted liveness package and checks it like a plain body; the package's own
 * `workflow_data.intelligentLiveness` overrides the one sealed inside.
 *
 * @example
 * const request = openLivenessPackage(liveness.envelopeKey, body); // then checkLiveness(liveness, request)
 * @throws {EnvelopeError} for a package that does not open (another key or purpose, altered);
 * {@link BodyValidationError} for a bad inside
 */
export function openLivenessPackage(key: EnvelopeOpeningKey, body: EncryptedLivenessRequest): FaceLivenessRequest {
  const { workflow_data: override, ...envelope } = body;
  const inner = checkBody<FaceLivenessRequest>(FaceLivenessRequest, decryptJsonEnvelope(envelope, key));
  if (override?.intelligentLiveness !== undefined)
    inner.video.workflow_data.intelligentLiveness = override.intelligentLiveness;
  return inner;
}

/**
 * Opens the encrypted package of `/checkActiveLivenessEncrypted` (the JSON array of three requests sealed).
 *
 * @example
 * const requests = openActiveLivenessPackage(liveness.envelopeKey, body);
 * await checkActiveLiveness(liveness, requests);
 */
export function openActiveLivenessPackage(key: EnvelopeOpeningKey, body: EncryptedRequest): ActiveLivenessRequest {
  return checkBody<ActiveLivenessRequest>(ActiveLivenessRequest, decryptJsonEnvelope(body, key));
}

import { decryptJsonEnvelope, type EnvelopeOpeningKey } from '../../crypto/envelope.js';
import type { EncryptedRequest } from '../../server/schemas/encrypted-request.js';
import { checkBody } from '../../server/validation.js';
import { AutocaptureDocumentRequest } from './schemas.js';

/**
 * Opens an `/autocaptureDocumentEncrypted` package (the `/autocaptureDocument` body sealed for
 * 'document-autocapture') and checks it like a plain body.
 *
 * @example
 * await autocaptureDocument(context, openAutocapturePackage(context.envelopeKey, body));
 * @throws {EnvelopeError} for a package that does not open; {@link BodyValidationError} for a bad inside
 */
export function openAutocapturePackage(key: EnvelopeOpeningKey, body: EncryptedRequest): AutocaptureDocumentRequest {
  return checkBody<AutocaptureDocumentRequest>(AutocaptureDocumentRequest, decryptJsonEnvelope(body, key));
}

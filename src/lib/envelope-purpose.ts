/**
 * What a `{key, iv, p}` envelope is sealed for, named after the service that opens it. Each purpose has
 * its own RSA key pair, and the purpose is bound into the envelope as AES-GCM additional data, so an
 * envelope sealed for one purpose never opens for another (no service decrypts a package meant for a
 * different one; face liveness's `/decrypt` is no oracle for onboarding frames). Adding a service with
 * `*Encrypted` calls is one line here.
 *
 * This is wire format shared by the server (src/crypto) and the client SDK (src/client), hence in lib/.
 */
export const ENVELOPE_PURPOSES = [
  /** Onboarding's face frames (addFace, verifyFace); the key `GET /getPublicKey` serves. */
  'onboarding',
  /** Face liveness's `*Encrypted` calls and `/decrypt`; the key `GET /face-liveness/getPublicKey` serves. */
  'face-liveness',
  /** Face analysis's `/autocaptureVideoEncrypted`; the key `GET /face-analysis/getPublicKey` serves. */
  'face-analysis',
  /** Document autocapture's `/autocaptureDocumentEncrypted` (service not built yet). */
  'document-autocapture',
  /** Document validation's sealed chip data (`encryptedDocument` as `{key, iv, p}`); its `GET /getPublicKey`. */
  'document-validation',
  /** Voice liveness's `/analyzeEncrypted` and `/calculateVoiceLengthEncrypted` (service not built yet). */
  'voice-liveness',
] as const;

export type EnvelopePurpose = (typeof ENVELOPE_PURPOSES)[number];

/** The fixed part of the additional data; the version changes if the envelope format ever does. */
export const ENVELOPE_LABEL = 'veriport envelope v1';

/**
 * Whether a string names an envelope purpose.
 *
 * @example
 * isEnvelopePurpose('face-liveness'); // true
 * isEnvelopePurpose('face-matching'); // false: no encrypted calls
 */
export function isEnvelopePurpose(value: string): value is EnvelopePurpose {
  return (ENVELOPE_PURPOSES as readonly string[]).includes(value);
}

/**
 * The AES-GCM additional data of an envelope sealed for `purpose`: `veriport envelope v1 <purpose>` in UTF-8.
 *
 * @example
 * envelopeAssociatedData('onboarding').toString(); // 'veriport envelope v1 onboarding'
 */
export function envelopeAssociatedData(purpose: EnvelopePurpose): Buffer {
  return Buffer.from(`${ENVELOPE_LABEL} ${purpose}`, 'utf8');
}

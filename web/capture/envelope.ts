import { toBase64, utf8 } from '../shared/bytes.js';

/** The `{key, iv, p}` package (DESIGN.md §5), each field standard base64. */
export interface Envelope {
  key: string;
  iv: string;
  p: string;
}

/**
 * The AES-GCM additional data of an envelope: `veriport envelope v1 <purpose>`, as `envelopeAssociatedData`
 * (src/lib/envelope-purpose.ts, which the browser bundle cannot import: it uses Buffer) writes it.
 */
const ENVELOPE_LABEL = 'veriport envelope v1';

/**
 * Seals a payload with WebCrypto exactly as the SDK's `encryptEnvelope` (src/client/envelope.ts) does: a fresh
 * AES-256-GCM key and 12-byte IV encrypt it with the purpose label as additional data (ciphertext then the
 * 16-byte tag), and RSA-OAEP-SHA-256 under the purpose's public key wraps the AES key.
 *
 * @example
 * const envelope = await sealEnvelope(jpegBytes, onboardingKey, 'onboarding');
 * frame.data = JSON.stringify(envelope);
 */
export async function sealEnvelope(
  payload: Uint8Array<ArrayBuffer>,
  publicKey: CryptoKey,
  purpose: 'onboarding',
): Promise<Envelope> {
  const aesKey = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt']);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: utf8(`${ENVELOPE_LABEL} ${purpose}`), tagLength: 128 },
    aesKey,
    payload,
  );
  const wrapped = await crypto.subtle.encrypt(
    { name: 'RSA-OAEP' },
    publicKey,
    await crypto.subtle.exportKey('raw', aesKey),
  );
  return { key: toBase64(new Uint8Array(wrapped)), iv: toBase64(iv), p: toBase64(new Uint8Array(sealed)) };
}

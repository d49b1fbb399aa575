import { constants, createCipheriv, publicEncrypt, randomBytes, type KeyObject } from 'node:crypto';
import { envelopeAssociatedData, type EnvelopePurpose } from '../lib/envelope-purpose.js';

export { ENVELOPE_PURPOSES, type EnvelopePurpose } from '../lib/envelope-purpose.js';

/** The `{key, iv, p}` package a client sends to the `*Encrypted` calls (see DESIGN.md §5). */
export interface Envelope {
  key: string;
  iv: string;
  p: string;
}

/**
 * Seals a payload for one purpose of a Veriport server: a fresh AES-256-GCM key encrypts the payload,
 * with `veriport envelope v1 <purpose>` as additional data, and is itself encrypted with RSA-OAEP-SHA256
 * under that purpose's public key (the PEM from `GET /getPublicKey` for onboarding frames, from
 * `GET /face-liveness/getPublicKey` for face liveness, ...). The server opens it for that purpose only.
 *
 * @example
 * const publicKeyPem = await (await fetch(`${base}/face-liveness/getPublicKey`, { headers })).text();
 * const envelope = encryptEnvelope(JSON.stringify(faceLivenessRequest), publicKeyPem, 'face-liveness');
 * await fetch(`${base}/face-liveness/checkLivenessEncrypted`, { method: 'POST', body: JSON.stringify(envelope) });
 */
export function encryptEnvelope(
  payload: string | Uint8Array,
  publicKey: string | KeyObject,
  purpose: EnvelopePurpose,
): Envelope {
  const aesKey = randomBytes(32);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', aesKey, iv);
  cipher.setAAD(envelopeAssociatedData(purpose));
  const data = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  const sealed = Buffer.concat([cipher.update(data), cipher.final(), cipher.getAuthTag()]);
  const wrappedKey = publicEncrypt(
    { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    aesKey,
  );
  return { key: wrappedKey.toString('base64'), iv: iv.toString('base64'), p: sealed.toString('base64') };
}

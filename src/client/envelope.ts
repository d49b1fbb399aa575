import { constants, createCipheriv, publicEncrypt, randomBytes, type KeyObject } from 'node:crypto';

/** The `{key, iv, p}` package a client sends to the `*Encrypted` calls (see DESIGN.md §5). */
export interface Envelope {
  key: string;
  iv: string;
  p: string;
}

/**
 * Seals a payload for a Veriport service: a fresh AES-256-GCM key encrypts the payload and is itself
 * encrypted with RSA-OAEP-SHA256 under the service's public key (the PEM from `getPublicKey`).
 *
 * @example
 * const envelope = encryptEnvelope(JSON.stringify(faceLivenessRequest), publicKeyPem);
 * await fetch(`${base}/face-liveness/checkLivenessEncrypted`, { method: 'POST', body: JSON.stringify(envelope) });
 */
export function encryptEnvelope(payload: string | Uint8Array, publicKey: string | KeyObject): Envelope {
  const aesKey = randomBytes(32);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', aesKey, iv);
  const data = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  const sealed = Buffer.concat([cipher.update(data), cipher.final(), cipher.getAuthTag()]);
  const wrappedKey = publicEncrypt(
    { key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    aesKey,
  );
  return { key: wrappedKey.toString('base64'), iv: iv.toString('base64'), p: sealed.toString('base64') };
}

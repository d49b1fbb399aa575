import { constants, createDecipheriv, privateDecrypt, type KeyObject } from 'node:crypto';
import { envelopeAssociatedData, type EnvelopePurpose } from '../lib/envelope-purpose.js';
import { MAX_JSON_DEPTH, jsonNestingExceeds } from '../lib/json-depth.js';
import { decodeBase64 } from './base64.js';

/**
 * The `{key, iv, p}` package: `key` is a fresh AES-256 key encrypted with RSA-OAEP-SHA256 under the
 * public key of the envelope's purpose, `iv` the 12-byte GCM nonce, `p` the AES-256-GCM ciphertext
 * followed by its 16-byte tag, with `veriport envelope v1 <purpose>` as GCM additional data
 * (src/lib/envelope-purpose.ts). All three are base64.
 */
export interface Envelope {
  readonly key: string;
  readonly iv: string;
  readonly p: string;
}

export type EnvelopeFailure = 'wrong-key' | 'bad-iv' | 'truncated' | 'tampered' | 'not-json';

/** Raised when an envelope cannot be opened; the message says why and is safe to return to the caller. */
export class EnvelopeError extends Error {
  override name = 'EnvelopeError';
  constructor(
    readonly failure: EnvelopeFailure,
    message: string,
  ) {
    super(message);
  }
}

export const ENVELOPE_IV_BYTES = 12;
export const ENVELOPE_TAG_BYTES = 16;
const AES_KEY_BYTES = 32;

/** The private key of one purpose, and that purpose: an envelope opens only with both (a key ring's pair). */
export interface EnvelopeOpeningKey {
  readonly purpose: EnvelopePurpose;
  readonly privateKey: KeyObject;
}

/**
 * Opens an envelope sealed for the key's purpose.
 *
 * @example
 * const plaintext = decryptEnvelope(body, envelopeKeys.key('face-liveness'));
 * const pkg = JSON.parse(plaintext.toString('utf8'));
 * @throws {InvalidBase64Error} when a member is not base64
 * @throws {EnvelopeError} when the key was made for another server or purpose (`wrong-key`), the envelope
 * was sealed for another purpose, or `iv`/`p` were altered or cut (`tampered`)
 */
export function decryptEnvelope(envelope: Envelope, key: EnvelopeOpeningKey): Buffer {
  const wrappedKey = decodeBase64(envelope.key, 'key');
  const iv = decodeBase64(envelope.iv, 'iv');
  const sealed = decodeBase64(envelope.p, 'p');
  if (iv.length !== ENVELOPE_IV_BYTES) {
    throw new EnvelopeError('bad-iv', `'iv' must be ${ENVELOPE_IV_BYTES} bytes (got ${iv.length})`);
  }
  if (sealed.length < ENVELOPE_TAG_BYTES) {
    throw new EnvelopeError('truncated', `'p' is truncated: shorter than its ${ENVELOPE_TAG_BYTES}-byte tag`);
  }
  const aesKey = unwrapKey(wrappedKey, key.privateKey);
  const decipher = createDecipheriv('aes-256-gcm', aesKey, iv);
  decipher.setAAD(envelopeAssociatedData(key.purpose));
  decipher.setAuthTag(sealed.subarray(sealed.length - ENVELOPE_TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - ENVELOPE_TAG_BYTES)), decipher.final()]);
  } catch {
    throw new EnvelopeError(
      'tampered',
      `'p' failed authentication: the package was altered, cut, re-encrypted, or sealed for another purpose than '${key.purpose}'`,
    );
  }
}

function unwrapKey(wrappedKey: Buffer, privateKey: KeyObject): Buffer {
  let aesKey: Buffer;
  try {
    aesKey = privateDecrypt(
      { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      wrappedKey,
    );
  } catch {
    throw new EnvelopeError(
      'wrong-key',
      `'key' cannot be decrypted with this server's key (encrypted for another key or purpose, or altered)`,
    );
  }
  if (aesKey.length !== AES_KEY_BYTES) {
    throw new EnvelopeError('wrong-key', `'key' must hold a ${AES_KEY_BYTES}-byte AES key (got ${aesKey.length})`);
  }
  return aesKey;
}

/**
 * Opens an envelope whose payload is a JSON document (every `*Encrypted` call and `/decrypt`).
 *
 * @example
 * const pkg = decryptJsonEnvelope(request.body, deps.envelopeKeys.key('face-liveness'));
 * @throws {EnvelopeError} as {@link decryptEnvelope}, or `not-json` when the payload is not JSON or is
 * nested deeper than {@link MAX_JSON_DEPTH}
 */
export function decryptJsonEnvelope(envelope: Envelope, key: EnvelopeOpeningKey): unknown {
  const text = decryptEnvelope(envelope, key).toString('utf8');
  if (jsonNestingExceeds(text, MAX_JSON_DEPTH)) {
    throw new EnvelopeError('not-json', `the decrypted package is nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new EnvelopeError('not-json', 'the decrypted package is not valid JSON');
  }
}

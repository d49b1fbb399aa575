import { createHmac, createPublicKey, timingSafeEqual, verify, type KeyObject } from 'node:crypto';

/** How a device proves itself at `verifyDevice` (DESIGN.md §5). */
export const DEVICE_KEY_KINDS = ['p256', 'ed25519', 'hmac'] as const;
export type DeviceKeyKind = (typeof DEVICE_KEY_KINDS)[number];

/** A device public key that is not an SPKI P-256 or Ed25519 key. */
export class DeviceKeyError extends Error {
  override name = 'DeviceKeyError';
}

/** A registered device public key, normalised to SPKI PEM. */
export interface DevicePublicKey {
  readonly kind: Exclude<DeviceKeyKind, 'hmac'>;
  readonly pem: string;
}

/**
 * Reads the public key a device registers at `adddevice`: SPKI as PEM, or as base64 / base64url DER
 * (what WebCrypto's `exportKey('spki')` gives). Only P-256 (ECDSA) and Ed25519 are accepted: RSA or
 * other curves would widen what `verifyDevice` has to trust for no gain.
 *
 * @example
 * const key = parseDevicePublicKey(body.devicePublicKey);
 * // { kind: 'p256', pem: '-----BEGIN PUBLIC KEY-----...' }
 * @throws {DeviceKeyError} when the text is not such a key
 */
export function parseDevicePublicKey(text: string): DevicePublicKey {
  let key: KeyObject;
  try {
    key = text.includes('-----BEGIN')
      ? createPublicKey(text)
      : createPublicKey({ key: Buffer.from(text, 'base64url'), format: 'der', type: 'spki' });
  } catch {
    throw new DeviceKeyError('devicePublicKey is not an SPKI public key (PEM, or base64 DER)');
  }
  const pem = key.export({ type: 'spki', format: 'pem' }).toString();
  if (key.asymmetricKeyType === 'ed25519') return { kind: 'ed25519', pem };
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1')
    return { kind: 'p256', pem };
  const curve = key.asymmetricKeyDetails?.namedCurve;
  const got = `${key.asymmetricKeyType ?? 'unknown'}${curve ? ` ${curve}` : ''}`;
  throw new DeviceKeyError(`devicePublicKey must be a P-256 (ECDSA) or Ed25519 key (got ${got})`);
}

/**
 * Checks a device's `signature` over `message` (the UTF-8 bytes of the `authToken`). The signature is
 * base64 or base64url: ECDSA P-256 with SHA-256 as DER or as the 64-byte r||s that WebCrypto gives,
 * Ed25519 as 64 bytes, or HMAC-SHA256 under the device secret (the fallback for devices without a key
 * pair). Anything malformed is simply not a valid signature.
 *
 * @example
 * verifyDeviceSignature({ kind: 'p256', pem }, authToken, body.signature); // true or false
 * verifyDeviceSignature({ kind: 'hmac', secret }, authToken, body.signature);
 */
export function verifyDeviceSignature(
  device: DevicePublicKey | { kind: 'hmac'; secret: Uint8Array },
  message: string,
  signature: string,
): boolean {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(signature)) return false;
  const provided = Buffer.from(signature, 'base64url');
  const data = Buffer.from(message, 'utf8');
  if (device.kind === 'hmac') {
    const expected = createHmac('sha256', device.secret).update(data).digest();
    return provided.length === expected.length && timingSafeEqual(provided, expected);
  }
  try {
    if (device.kind === 'ed25519') return verify(null, data, device.pem, provided);
    const dsaEncoding = provided.length === 64 ? 'ieee-p1363' : 'der';
    return verify('sha256', data, { key: device.pem, dsaEncoding }, provided);
  } catch {
    return false;
  }
}

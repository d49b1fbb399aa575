import { createHmac, createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

/** What a device needs for `verifyDevice`: something that signs the `authToken`. */
export interface DeviceSigner {
  /** Signature of `message` (UTF-8), base64url, as `verifyDevice` takes it. */
  sign(message: string): string;
}

/** A device key pair: the public half goes to `adddevice`, the private half never leaves the device. */
export interface DeviceKey extends DeviceSigner {
  readonly kind: 'p256' | 'ed25519';
  /** SPKI PEM, the `devicePublicKey` of `adddevice`. */
  readonly publicKeyPem: string;
  /** PKCS#8 PEM of the private key, to keep the key between runs (a phone keeps it in its keystore instead). */
  exportPrivateKey(): string;
}

/**
 * Generates a device key pair (on a phone this lives in the secure enclave / keystore; here, in memory).
 *
 * @example
 * const device = generateDeviceKey('p256');
 * await client.addDevice(enrollmentToken, deviceId, device);
 * const signature = device.sign(authToken);
 */
export function generateDeviceKey(kind: 'p256' | 'ed25519' = 'p256'): DeviceKey {
  const { privateKey } =
    kind === 'p256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('ed25519');
  return deviceKeyOf(privateKey);
}

/**
 * A device key from its PKCS#8 PEM (as {@link DeviceKey.exportPrivateKey} wrote it).
 *
 * @example
 * const device = loadDeviceKey(await readFile('device-key.pem', 'utf8'));
 * @throws {Error} when the PEM is not a P-256 or Ed25519 private key
 */
export function loadDeviceKey(privateKeyPem: string): DeviceKey {
  return deviceKeyOf(createPrivateKey(privateKeyPem));
}

function deviceKeyOf(privateKey: KeyObject): DeviceKey {
  const kind =
    privateKey.asymmetricKeyType === 'ed25519'
      ? 'ed25519'
      : privateKey.asymmetricKeyDetails?.namedCurve === 'prime256v1'
        ? 'p256'
        : undefined;
  if (kind === undefined) throw new Error('a device key must be P-256 or Ed25519');
  return {
    kind,
    publicKeyPem: createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString(),
    exportPrivateKey: () => privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    sign: (message) => signWith(kind, privateKey, message),
  };
}

/**
 * The signer of a device enrolled without a key pair: HMAC-SHA256 under the `deviceSecret` that
 * `adddevice` returned.
 *
 * @example
 * const device = hmacDevice(addDeviceResponse.deviceSecret);
 * device.sign(authToken);
 */
export function hmacDevice(deviceSecret: string): DeviceSigner {
  const secret = Buffer.from(deviceSecret, 'base64url');
  return { sign: (message) => createHmac('sha256', secret).update(message, 'utf8').digest('base64url') };
}

function signWith(kind: 'p256' | 'ed25519', privateKey: KeyObject, message: string): string {
  const data = Buffer.from(message, 'utf8');
  // r||s (IEEE P1363), the form WebCrypto produces; the server takes DER too.
  const signature =
    kind === 'p256'
      ? sign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' })
      : sign(null, data, privateKey);
  return signature.toString('base64url');
}

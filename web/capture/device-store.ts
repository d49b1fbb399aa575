import { toBase64, toBase64Url, utf8 } from '../shared/bytes.js';

/**
 * This browser's device identity for onboarding (DESIGN.md §5, device keys): an ECDSA P-256 key pair made by
 * WebCrypto with a **non-extractable** private key, kept in IndexedDB (a CryptoKey is stored as an object:
 * script of this origin can use it to sign but never read it out), and a random deviceId. P-256 is what
 * `adddevice` takes besides Ed25519 and what every browser's WebCrypto makes; `verifyDevice` takes its
 * r||s signature in base64url.
 */
export interface DeviceIdentity {
  readonly deviceId: string;
  readonly keyPair: CryptoKeyPair;
}

/** What the phone keeps of a completed enrollment: the registration code authentication starts with. */
export interface Enrolment {
  readonly registrationCode: string;
  readonly deviceId: string;
}

const DATABASE = 'veriport-capture';
const DEVICE = 'device';
const ENROLMENTS = 'enrolments';
const DEVICE_KEY = 'this-device';

function openDatabase(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore(DEVICE);
      request.result.createObjectStore(ENROLMENTS);
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB cannot be opened'));
  });
}

async function withStore<T>(
  name: string,
  mode: IDBTransactionMode,
  act: (store: IDBObjectStore) => IDBRequest,
): Promise<T | undefined> {
  const db = await openDatabase();
  try {
    return await new Promise<T | undefined>((resolve, reject) => {
      const request = act(db.transaction(name, mode).objectStore(name));
      // The stored values are this module's own records (put below).
      request.onsuccess = () => resolve(request.result as T | undefined);
      request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
    });
  } finally {
    db.close();
  }
}

/**
 * The device identity of this browser, made on first use.
 *
 * @example
 * const device = await deviceIdentity();
 * await api.addDevice(enrollmentToken, device.deviceId, await publicKeyPem(device));
 */
export async function deviceIdentity(): Promise<DeviceIdentity> {
  const stored = await withStore<DeviceIdentity>(DEVICE, 'readonly', (store) => store.get(DEVICE_KEY));
  if (stored !== undefined && isIdentity(stored)) return stored;
  const keyPair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  const identity: DeviceIdentity = { deviceId: `web-${crypto.randomUUID()}`, keyPair };
  await withStore(DEVICE, 'readwrite', (store) => store.put(identity, DEVICE_KEY));
  return identity;
}

function isIdentity(value: DeviceIdentity): boolean {
  return (
    typeof value.deviceId === 'string' &&
    value.keyPair.privateKey instanceof CryptoKey &&
    value.keyPair.publicKey instanceof CryptoKey
  );
}

/**
 * The `devicePublicKey` of adddevice: the public key as SPKI PEM.
 *
 * @example
 * await publicKeyPem(device); // '-----BEGIN PUBLIC KEY-----\nMFkw...'
 */
export async function publicKeyPem(device: DeviceIdentity): Promise<string> {
  const der = new Uint8Array(await crypto.subtle.exportKey('spki', device.keyPair.publicKey));
  const lines = toBase64(der).match(/.{1,64}/g) ?? [];
  return `-----BEGIN PUBLIC KEY-----\n${lines.join('\n')}\n-----END PUBLIC KEY-----\n`;
}

/**
 * verifyDevice's signature: ECDSA P-256 SHA-256 over the UTF-8 bytes of the authToken, r||s, base64url.
 *
 * @example
 * await api.verifyDevice(authToken, device.deviceId, await signAuthToken(device, authToken));
 */
export async function signAuthToken(device: DeviceIdentity, authToken: string): Promise<string> {
  const signature = await crypto.subtle.sign(
    { name: 'ECDSA', hash: 'SHA-256' },
    device.keyPair.privateKey,
    utf8(authToken),
  );
  return toBase64Url(new Uint8Array(signature));
}

/** Enrolments are kept per server customer and user (the registration code is theirs). */
function enrolmentKey(customerName: string, userName: string): string {
  return JSON.stringify([customerName, userName]);
}

/**
 * Keeps the registration code of a completed enrollment, for later authentications on this phone.
 *
 * @example
 * await saveEnrolment('ACME Bank', 'alice', { registrationCode, deviceId: device.deviceId });
 */
export async function saveEnrolment(customerName: string, userName: string, enrolment: Enrolment): Promise<void> {
  await withStore(ENROLMENTS, 'readwrite', (store) => store.put(enrolment, enrolmentKey(customerName, userName)));
}

/**
 * The enrollment this phone completed for the user, if any.
 *
 * @example
 * const enrolment = await findEnrolment(session.customerName, session.userName);
 */
export async function findEnrolment(customerName: string, userName: string): Promise<Enrolment | undefined> {
  const found = await withStore<Enrolment>(ENROLMENTS, 'readonly', (store) =>
    store.get(enrolmentKey(customerName, userName)),
  );
  return found !== undefined && typeof found.registrationCode === 'string' && typeof found.deviceId === 'string'
    ? found
    : undefined;
}

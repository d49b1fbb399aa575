import { createHash, createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { EnvelopePurpose } from '../lib/envelope-purpose.js';
import type { ServerKeysRepository, StoredKeyPair } from '../store/server-keys.js';

/**
 * The RSA pair that opens the `{key, iv, p}` envelopes of one purpose; `publicKeyPem` is what that
 * purpose's `getPublicKey` serves.
 */
export interface ServerKeyPair {
  readonly purpose: EnvelopePurpose;
  readonly keyId: string;
  readonly publicKeyPem: string;
  readonly publicKey: KeyObject;
  readonly privateKey: KeyObject;
}

/**
 * Where a pair comes from: PEM files the operator manages (the public key derived from the private one
 * when no public file is given), or the store (generated on first start).
 */
export type ServerKeySource =
  | {
      readonly kind: 'files';
      readonly privateKeyFile: string;
      readonly publicKeyFile?: string | undefined;
      readonly passphrase?: string | undefined;
    }
  | { readonly kind: 'store'; readonly repository: ServerKeysRepository; readonly passphrase?: string | undefined };

/**
 * The store row of the one envelope pair of earlier releases. It becomes the onboarding pair (the key
 * `GET /getPublicKey` always served, which deployed apps may have pinned): copied, not renamed, so a
 * replica of an earlier release still running beside this one keeps reading the same key.
 */
export const LEGACY_ENVELOPE_ROW = 'envelope';
const MIN_MODULUS_BITS = 2048;
const GENERATED_MODULUS_BITS = 3072;
const generate = promisify(generateKeyPair);

/**
 * Loads the key pair of one envelope purpose, generating and storing it on first start when it comes
 * from the store. Replicas starting together converge on the first stored pair.
 *
 * @example
 * const keys = await loadServerKeyPair('onboarding', { kind: 'store', repository: serverKeysRepository(store.db) });
 * keys.publicKeyPem; // '-----BEGIN PUBLIC KEY-----...'
 * @throws {Error} when the files are unreadable, not RSA, too short, or not one pair
 */
export async function loadServerKeyPair(purpose: EnvelopePurpose, source: ServerKeySource): Promise<ServerKeyPair> {
  if (source.kind === 'files') {
    const [privatePem, publicPem] = await Promise.all([
      readFile(source.privateKeyFile, 'utf8'),
      source.publicKeyFile === undefined ? undefined : readFile(source.publicKeyFile, 'utf8'),
    ]);
    return fromPem(purpose, privatePem, publicPem, source.passphrase);
  }
  const { repository, passphrase } = source;
  const stored = (await repository.find(purpose)) ?? (await adoptLegacyPair(purpose, repository));
  if (stored !== undefined) return fromPem(purpose, stored.privateKeyPem, stored.publicKeyPem, passphrase);
  const fresh = await generatePem(passphrase);
  // Another replica may have won the race; both then use the stored pair.
  const winner = await repository.insertIfAbsent({ purpose, keyId: keyIdOf(fresh.publicKeyPem), ...fresh });
  return fromPem(purpose, winner.privateKeyPem, winner.publicKeyPem, passphrase);
}

/** The onboarding pair from the earlier releases' single 'envelope' row, stored under its purpose. */
async function adoptLegacyPair(
  purpose: EnvelopePurpose,
  repository: ServerKeysRepository,
): Promise<StoredKeyPair | undefined> {
  if (purpose !== 'onboarding') return undefined;
  const legacy = await repository.find(LEGACY_ENVELOPE_ROW);
  return legacy === undefined ? undefined : repository.insertIfAbsent({ ...legacy, purpose });
}

async function generatePem(passphrase: string | undefined): Promise<{ publicKeyPem: string; privateKeyPem: string }> {
  const { publicKey, privateKey } = await generate('rsa', {
    modulusLength: GENERATED_MODULUS_BITS,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding:
      passphrase === undefined
        ? { type: 'pkcs8', format: 'pem' }
        : { type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase },
  });
  return { publicKeyPem: publicKey, privateKeyPem: privateKey };
}

function fromPem(
  purpose: EnvelopePurpose,
  privatePem: string,
  publicPem: string | undefined,
  passphrase: string | undefined,
): ServerKeyPair {
  const privateKey = createPrivateKey(passphrase === undefined ? privatePem : { key: privatePem, passphrase });
  const derived = createPublicKey(privateKey);
  const publicKey = publicPem === undefined ? derived : createPublicKey(publicPem);
  if (privateKey.asymmetricKeyType !== 'rsa' || publicKey.asymmetricKeyType !== 'rsa') {
    throw new Error(`the ${purpose} envelope key pair must be RSA`);
  }
  const bits = publicKey.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_MODULUS_BITS)
    throw new Error(`the ${purpose} envelope key must have at least ${MIN_MODULUS_BITS} bits (has ${bits})`);
  const derivedPublic = derived.export({ type: 'spki', format: 'pem' }).toString();
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  if (derivedPublic !== publicKeyPem)
    throw new Error(`the ${purpose} envelope public key does not belong to the private key`);
  return { purpose, keyId: keyIdOf(publicKeyPem), publicKeyPem, publicKey, privateKey };
}

/** Short fingerprint of the public key, so logs and tokens can name a key without showing it. */
function keyIdOf(publicKeyPem: string): string {
  return createHash('sha256')
    .update(createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' }))
    .digest('base64url')
    .slice(0, 16);
}

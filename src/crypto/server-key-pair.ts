import { createHash, createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { ServerKeysRepository } from '../store/server-keys.js';

/** The RSA pair that opens `{key, iv, p}` envelopes; `publicKeyPem` is what `getPublicKey` serves. */
export interface ServerKeyPair {
  readonly keyId: string;
  readonly publicKeyPem: string;
  readonly publicKey: KeyObject;
  readonly privateKey: KeyObject;
}

/** Where the pair comes from: PEM files the operator manages, or the store (generated on first start). */
export type ServerKeySource =
  | {
      readonly kind: 'files';
      readonly privateKeyFile: string;
      readonly publicKeyFile: string;
      readonly passphrase?: string | undefined;
    }
  | { readonly kind: 'store'; readonly repository: ServerKeysRepository; readonly passphrase?: string | undefined };

const ENVELOPE_PURPOSE = 'envelope';
const MIN_MODULUS_BITS = 2048;
const GENERATED_MODULUS_BITS = 3072;
const generate = promisify(generateKeyPair);

/**
 * Loads the envelope key pair, generating and storing it on first start when no files are configured.
 *
 * @example
 * const keys = await loadServerKeyPair({ kind: 'store', repository: serverKeysRepository(store.db) });
 * keys.publicKeyPem; // '-----BEGIN PUBLIC KEY-----...'
 * @throws {Error} when the files are unreadable, not RSA, too short, or not one pair
 */
export async function loadServerKeyPair(source: ServerKeySource): Promise<ServerKeyPair> {
  if (source.kind === 'files') {
    const [privatePem, publicPem] = await Promise.all([
      readFile(source.privateKeyFile, 'utf8'),
      readFile(source.publicKeyFile, 'utf8'),
    ]);
    return fromPem(privatePem, publicPem, source.passphrase);
  }
  const stored = await source.repository.find(ENVELOPE_PURPOSE);
  if (stored !== undefined) return fromPem(stored.privateKeyPem, stored.publicKeyPem, source.passphrase);
  const fresh = await generatePem(source.passphrase);
  // Another replica may have won the race; both then use the stored pair.
  const winner = await source.repository.insertIfAbsent({
    purpose: ENVELOPE_PURPOSE,
    keyId: keyIdOf(fresh.publicKeyPem),
    ...fresh,
  });
  return fromPem(winner.privateKeyPem, winner.publicKeyPem, source.passphrase);
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

function fromPem(privatePem: string, publicPem: string, passphrase: string | undefined): ServerKeyPair {
  const privateKey = createPrivateKey(passphrase === undefined ? privatePem : { key: privatePem, passphrase });
  const publicKey = createPublicKey(publicPem);
  if (privateKey.asymmetricKeyType !== 'rsa' || publicKey.asymmetricKeyType !== 'rsa') {
    throw new Error('the envelope key pair must be RSA');
  }
  const bits = publicKey.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_MODULUS_BITS)
    throw new Error(`the envelope key must have at least ${MIN_MODULUS_BITS} bits (has ${bits})`);
  const derivedPublic = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  if (derivedPublic !== publicKeyPem) throw new Error('the envelope public key does not belong to the private key');
  return { keyId: keyIdOf(publicKeyPem), publicKeyPem, publicKey, privateKey };
}

/** Short fingerprint of the public key, so logs and tokens can name a key without showing it. */
function keyIdOf(publicKeyPem: string): string {
  return createHash('sha256')
    .update(createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' }))
    .digest('base64url')
    .slice(0, 16);
}

import { join } from 'node:path';
import { ENVELOPE_PURPOSES, type EnvelopePurpose } from '../lib/envelope-purpose.js';
import type { ServerKeysRepository } from '../store/server-keys.js';
import { loadServerKeyPair, type ServerKeyPair, type ServerKeySource } from './server-key-pair.js';

/**
 * The server's envelope key pairs, one per purpose (src/lib/envelope-purpose.ts): onboarding frames,
 * face liveness's packages, face analysis's, ... A service takes the pair of its purpose once, when its
 * routes are registered.
 */
export interface EnvelopeKeyRing {
  /** The purposes this ring holds a pair for, in {@link ENVELOPE_PURPOSES} order. */
  readonly purposes: readonly EnvelopePurpose[];
  /**
   * The pair of one purpose.
   * @throws {Error} for a purpose the ring was not loaded with (a service mounted without its key: a wiring bug)
   */
  key(purpose: EnvelopePurpose): ServerKeyPair;
}

/** Where the pairs come from; the operator's files win over the store. */
export interface EnvelopeKeySources {
  /** The onboarding pair's PEM files (`VERIPORT_PRIVATE_KEY_FILE`, `VERIPORT_PUBLIC_KEY_FILE`). */
  readonly onboardingFiles?: { readonly privateKeyFile: string; readonly publicKeyFile: string } | undefined;
  /**
   * A directory (`VERIPORT_KEY_DIR`) holding one private key per purpose, `<purpose>.pem` (PKCS#8 or
   * PKCS#1 PEM; the public key is derived from it). When set, every purpose not given by
   * `onboardingFiles` must have its file there: nothing is generated into the store.
   */
  readonly keyDirectory?: string | undefined;
  /** Where pairs not given by files are kept, generated on first start. */
  readonly repository: ServerKeysRepository;
  /** Opens encrypted PEM files and stored keys; encrypts the generated ones at rest. */
  readonly passphrase?: string | undefined;
}

/**
 * Loads the pairs of `purposes` in parallel (a missing stored pair is generated: about a second of CPU
 * each for 3072 bits, once per database).
 *
 * @example
 * const ring = await loadEnvelopeKeyRing(['onboarding', 'face-liveness'], { repository: serverKeysRepository(db) });
 * ring.key('face-liveness').publicKeyPem; // '-----BEGIN PUBLIC KEY-----...'
 * @throws {Error} when a file is missing, unreadable or not a fitting RSA key, or two purposes share a key
 */
export async function loadEnvelopeKeyRing(
  purposes: readonly EnvelopePurpose[],
  sources: EnvelopeKeySources,
): Promise<EnvelopeKeyRing> {
  const pairs = await Promise.all(
    [...new Set(purposes)].map((purpose) => loadPair(purpose, sourceOf(purpose, sources))),
  );
  return envelopeKeyRing(pairs);
}

/**
 * A ring over pairs already loaded, one per purpose.
 *
 * @example
 * const ring = envelopeKeyRing([await loadServerKeyPair('onboarding', source)]);
 * ring.key('onboarding').keyId; // 'k3Xq...'
 * @throws {Error} when a purpose appears twice, or two purposes share one key pair
 */
export function envelopeKeyRing(pairs: readonly ServerKeyPair[]): EnvelopeKeyRing {
  const byPurpose = new Map<EnvelopePurpose, ServerKeyPair>();
  const byKeyId = new Map<string, EnvelopePurpose>();
  for (const pair of pairs) {
    if (byPurpose.has(pair.purpose)) throw new Error(`two key pairs for the envelope purpose '${pair.purpose}'`);
    const sharing = byKeyId.get(pair.keyId);
    if (sharing !== undefined)
      throw new Error(
        `the envelope purposes '${sharing}' and '${pair.purpose}' share one key pair: each needs its own`,
      );
    byPurpose.set(pair.purpose, pair);
    byKeyId.set(pair.keyId, pair.purpose);
  }
  return {
    purposes: ENVELOPE_PURPOSES.filter((purpose) => byPurpose.has(purpose)),
    key(purpose) {
      const pair = byPurpose.get(purpose);
      if (pair === undefined) throw new Error(`no envelope key pair was loaded for '${purpose}'`);
      return pair;
    },
  };
}

function sourceOf(purpose: EnvelopePurpose, sources: EnvelopeKeySources): ServerKeySource {
  const { passphrase } = sources;
  if (purpose === 'onboarding' && sources.onboardingFiles !== undefined)
    return { kind: 'files', ...sources.onboardingFiles, passphrase };
  if (sources.keyDirectory !== undefined)
    return { kind: 'files', privateKeyFile: join(sources.keyDirectory, `${purpose}.pem`), passphrase };
  return { kind: 'store', repository: sources.repository, passphrase };
}

async function loadPair(purpose: EnvelopePurpose, source: ServerKeySource): Promise<ServerKeyPair> {
  try {
    return await loadServerKeyPair(purpose, source);
  } catch (error) {
    if (source.kind === 'files' && source.publicKeyFile === undefined && isMissingFile(error))
      throw new Error(
        `no private key for the envelope purpose '${purpose}': ${source.privateKeyFile} does not exist ` +
          `(create it, e.g. openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:3072 -out ${source.privateKeyFile})`,
        { cause: error },
      );
    throw error;
  }
}

function isMissingFile(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}

import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import {
  createLocalJWKSet,
  exportJWK,
  type FlattenedJWSInput,
  type JSONWebKeySet,
  type JWK,
  type JWSHeaderParameters,
} from 'jose';
import type { SigningKey, SigningKeysRepository } from '../../store/signing-keys.js';

/** How long a cache trusts its copy of the keys before reading the store again. */
export const KEY_CACHE_SECONDS = 60;
/** An unknown `kid` reloads the keys at most this often, so forged kids cannot flood the store. */
export const KEY_RELOAD_COOLDOWN_SECONDS = 5;
/** Allowance for clocks of the verifiers running behind ours. */
const CLOCK_SKEW_SECONDS = 60;

/** What `jwtVerify` takes to find the key of a token by its `kid`. */
export type KeyResolver = ReturnType<typeof createLocalJWKSet>;

/** The keys that verify access tokens: what the access checks need of a {@link SigningKeyCache}. */
export interface AccessTokenKeys {
  /** A key resolver for `jwtVerify` over the cached keys; an unknown `kid` reloads them first (rate-limited). */
  keyResolver(): Promise<KeyResolver>;
}

/** The key that signs tokens now. */
export interface ActiveSigningKey {
  readonly kid: string;
  readonly privateKey: KeyObject;
}

/** An in-memory copy of the token signing keys, shared by signing and verification in one process. */
export interface SigningKeyCache extends AccessTokenKeys {
  /** The key to sign with, from the copy; with `createFirstKey`, the first key is generated when there is none. */
  signingKey(): Promise<ActiveSigningKey>;
  /**
   * The published keys read from the store (not the copy): the active ones and those retired less than
   * {@link retiredKeyRetentionSeconds} ago, as a JWKS.
   */
  jwks(): Promise<JSONWebKeySet>;
}

/**
 * How long a retired key stays in the JWKS: a token lifetime, plus the cache period during which a
 * replica that has not yet seen the rotation still signs with it, plus clock skew.
 *
 * @example
 * retiredKeyRetentionSeconds(300); // 420
 */
export function retiredKeyRetentionSeconds(ttlSeconds: number): number {
  return ttlSeconds + KEY_CACHE_SECONDS + CLOCK_SKEW_SECONDS;
}

/** One read of the store: the key that signs (when one is active), and the published set that verifies. */
interface KeySnapshot {
  readonly loadedAt: number;
  readonly signing: ActiveSigningKey | undefined;
  readonly kids: ReadonlySet<string>;
  /** Reused until the next load, so jose imports each public key once rather than per token. */
  readonly resolver: KeyResolver;
}

/**
 * Creates the cache over the signing-keys repository, refreshed every {@link KEY_CACHE_SECONDS}; a
 * rotation elsewhere (another replica, `veriport admin rotate-signing-key`) reaches verification at the
 * first token bearing the new `kid`, and signing within the cache period. Only the signer's cache
 * (`createFirstKey`) generates the first key; a cache that only verifies (the biometric services) reads,
 * and with no key in the store refuses every token.
 *
 * @example
 * const keys = signingKeyCache(signingKeysRepository(store.db), 300);
 * await jwtVerify(token, await keys.keyResolver(), { algorithms: ['RS256'] });
 */
export function signingKeyCache(
  keys: SigningKeysRepository,
  ttlSeconds: number,
  options: { readonly now?: () => Date; readonly createFirstKey?: boolean } = {},
): SigningKeyCache {
  const now = options.now ?? (() => new Date());
  const createFirstKey = options.createFirstKey ?? false;
  const jwk = async (key: SigningKey): Promise<JWK> => ({
    ...(await exportJWK(createPublicKey(key.publicKeyPem))),
    kid: key.kid,
    alg: 'RS256',
    use: 'sig',
  });
  const published = (): Promise<SigningKey[]> =>
    keys.published(new Date(now().getTime() - retiredKeyRetentionSeconds(ttlSeconds) * 1000));

  const load = async (): Promise<KeySnapshot> => {
    let set = await published();
    // Newest first, so the first unretired key is the one `active()` would return.
    let signing = set.find((key) => key.retiredAt === undefined);
    if (signing === undefined && createFirstKey) {
      signing = await keys.active(); // generates the first key
      set = [signing, ...set];
    }
    return {
      loadedAt: now().getTime(),
      signing:
        signing === undefined ? undefined : { kid: signing.kid, privateKey: createPrivateKey(signing.privateKeyPem) },
      kids: new Set(set.map((key) => key.kid)),
      resolver: createLocalJWKSet({ keys: await Promise.all(set.map(jwk)) }),
    };
  };

  let snapshot: KeySnapshot | undefined;
  let loading: Promise<KeySnapshot> | undefined;
  let lastLoadStart = Number.NEGATIVE_INFINITY;
  // Concurrent callers share one read; a failed read leaves the previous snapshot in place.
  const reload = (): Promise<KeySnapshot> => {
    loading ??= (async () => {
      lastLoadStart = now().getTime();
      try {
        snapshot = await load();
        return snapshot;
      } finally {
        loading = undefined;
      }
    })();
    return loading;
  };
  const current = async (): Promise<KeySnapshot> =>
    snapshot !== undefined && now().getTime() - snapshot.loadedAt < KEY_CACHE_SECONDS * 1000 ? snapshot : reload();
  const withKid = async (kid: unknown): Promise<KeySnapshot> => {
    const cached = await current();
    if (typeof kid !== 'string' || cached.kids.has(kid)) return cached;
    // The cooldown counts from any read, failed ones included, so a flood costs one read per period.
    return now().getTime() - lastLoadStart >= KEY_RELOAD_COOLDOWN_SECONDS * 1000 ? reload() : cached;
  };

  // One resolver for the cache's lifetime; it delegates to the snapshot of the moment.
  const resolver: KeyResolver = Object.assign(
    async (protectedHeader?: JWSHeaderParameters, token?: FlattenedJWSInput) =>
      (await withKid({ ...protectedHeader, ...token?.header }.kid)).resolver(protectedHeader, token),
    { jwks: (): JSONWebKeySet => snapshot?.resolver.jwks() ?? { keys: [] } },
  );

  return {
    async signingKey() {
      const { signing } = await current();
      if (signing === undefined) throw new Error('no active token signing key (this cache does not create one)');
      return signing;
    },
    // Read through: external verifiers must see a key as soon as any replica may sign with it, and the
    // route reads the store for the customer anyway.
    async jwks() {
      return { keys: await Promise.all((await published()).map(jwk)) };
    },
    keyResolver() {
      return Promise.resolve(resolver);
    },
  };
}

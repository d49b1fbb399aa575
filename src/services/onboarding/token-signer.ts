import { createPrivateKey, createPublicKey, randomUUID, type KeyObject } from 'node:crypto';
import {
  createLocalJWKSet,
  exportJWK,
  SignJWT,
  type FlattenedJWSInput,
  type JSONWebKeySet,
  type JWK,
  type JWSHeaderParameters,
} from 'jose';
import type { SigningKey, SigningKeysRepository } from '../../store/signing-keys.js';
import { CUSTOMER_CLAIM, TOKEN_AUDIENCE } from './realm.js';

/** How long the signer trusts its copy of the keys before reading the store again. */
export const KEY_CACHE_SECONDS = 60;
/** An unknown `kid` reloads the keys at most this often, so forged kids cannot flood the store. */
export const KEY_RELOAD_COOLDOWN_SECONDS = 5;
/** Allowance for clocks of the verifiers running behind ours. */
const CLOCK_SKEW_SECONDS = 60;

/** The Doc 1 token response. */
export interface TokenResponse {
  access_token: string;
  expires_in: number;
  refresh_expires_in: number;
  token_type: 'Bearer';
  id_token: string;
  'not-before-policy': number;
  scope: 'openid';
}

/** Signs onboarding tokens with the active key and publishes the keys that verify them. */
export interface TokenSigner {
  issue(claims: { issuer: string; customer: string; clientId: string }): Promise<TokenResponse>;
  /**
   * The JWKS, read from the store: the active keys and those retired less than
   * {@link retiredKeyRetentionSeconds} ago.
   */
  jwks(): Promise<JSONWebKeySet>;
  /** A key resolver for `jwtVerify` over the cached keys; an unknown `kid` reloads them first (rate-limited). */
  keyResolver(): Promise<ReturnType<typeof createLocalJWKSet>>;
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

/** One read of the store: the key that signs, and the published set that verifies. */
interface KeySnapshot {
  readonly loadedAt: number;
  readonly signingKid: string;
  readonly privateKey: KeyObject;
  readonly kids: ReadonlySet<string>;
  /** Reused until the next load, so jose imports each public key once rather than per token. */
  readonly resolver: ReturnType<typeof createLocalJWKSet>;
}

/**
 * Creates the signer over the signing-keys repository. Signing and verification use an in-memory
 * copy of the keys, refreshed every {@link KEY_CACHE_SECONDS}; a rotation elsewhere (another
 * replica, `veriport admin rotate-signing-key`) reaches verification at the first token bearing the
 * new `kid`, and signing within the cache period.
 *
 * @example
 * const signer = tokenSigner(signingKeysRepository(store.db), 300);
 * const tokens = await signer.issue({ issuer, customer: 'acme', clientId: 'acme-app' });
 */
export function tokenSigner(
  keys: SigningKeysRepository,
  ttlSeconds: number,
  now: () => Date = () => new Date(),
): TokenSigner {
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
    if (signing === undefined) {
      signing = await keys.active(); // generates the first key
      set = [signing, ...set];
    }
    return {
      loadedAt: now().getTime(),
      signingKid: signing.kid,
      privateKey: createPrivateKey(signing.privateKeyPem),
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

  // One resolver for the signer's lifetime; it delegates to the snapshot of the moment.
  const resolver: ReturnType<typeof createLocalJWKSet> = Object.assign(
    async (protectedHeader?: JWSHeaderParameters, token?: FlattenedJWSInput) =>
      (await withKid({ ...protectedHeader, ...token?.header }.kid)).resolver(protectedHeader, token),
    { jwks: (): JSONWebKeySet => snapshot?.resolver.jwks() ?? { keys: [] } },
  );

  return {
    async issue({ issuer, customer, clientId }) {
      const { signingKid, privateKey } = await current();
      const iat = Math.floor(now().getTime() / 1000);
      const sign = (typ: string, audience: string) =>
        new SignJWT({ typ, azp: clientId, [CUSTOMER_CLAIM]: customer, scope: 'openid' })
          .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: signingKid })
          .setIssuer(issuer)
          .setSubject(clientId)
          .setAudience(audience)
          .setIssuedAt(iat)
          .setExpirationTime(iat + ttlSeconds)
          .setJti(randomUUID())
          .sign(privateKey);
      return {
        access_token: await sign('Bearer', TOKEN_AUDIENCE),
        expires_in: ttlSeconds,
        refresh_expires_in: 0,
        token_type: 'Bearer',
        // An ID token's audience is the client it was issued to (OIDC Core §2).
        id_token: await sign('ID', clientId),
        'not-before-policy': 0,
        scope: 'openid',
      };
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

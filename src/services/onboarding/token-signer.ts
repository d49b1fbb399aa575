import { randomUUID } from 'node:crypto';
import { SignJWT, type JSONWebKeySet } from 'jose';
import { signingKeyCache, type KeyResolver } from '../../server/access/signing-key-cache.js';
import { CUSTOMER_CLAIM, TOKEN_AUDIENCE } from '../../server/access/token-claims.js';
import type { SigningKeysRepository } from '../../store/signing-keys.js';

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
  /** The JWKS, read from the store: the active keys and those retired less than the retention ago. */
  jwks(): Promise<JSONWebKeySet>;
  /** A key resolver for `jwtVerify` over the cached keys; an unknown `kid` reloads them first (rate-limited). */
  keyResolver(): Promise<KeyResolver>;
}

/**
 * Creates the signer over the signing-keys repository. Signing and verification share one in-memory
 * copy of the keys ({@link signingKeyCache}, server/access/), so a rotation seen by one is seen by both.
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
  const cache = signingKeyCache(keys, ttlSeconds, { now, createFirstKey: true });
  return {
    async issue({ issuer, customer, clientId }) {
      const { kid: signingKid, privateKey } = await cache.signingKey();
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
    jwks: () => cache.jwks(),
    keyResolver: () => cache.keyResolver(),
  };
}

import { createPrivateKey, createPublicKey, randomUUID } from 'node:crypto';
import { createLocalJWKSet, exportJWK, SignJWT, type JSONWebKeySet, type JWK } from 'jose';
import type { SigningKey, SigningKeysRepository } from '../../store/signing-keys.js';
import { TOKEN_AUDIENCE } from './realm.js';

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
  /** The JWKS: the active key and those retired less than a token lifetime (plus a minute) ago. */
  jwks(): Promise<JSONWebKeySet>;
  /** A key resolver for `jwtVerify` over {@link jwks}. */
  keyResolver(): Promise<ReturnType<typeof createLocalJWKSet>>;
}

/**
 * Creates the signer over the signing-keys repository.
 *
 * @example
 * const signer = tokenSigner(signingKeysRepository(store.db), 300);
 * const tokens = await signer.issue({ issuer, customer: 'acme', clientId: 'acme-app' });
 */
export function tokenSigner(keys: SigningKeysRepository, ttlSeconds: number, now: () => Date = () => new Date()): TokenSigner {
  const jwk = async (key: SigningKey): Promise<JWK> => ({ ...(await exportJWK(createPublicKey(key.publicKeyPem))), kid: key.kid, alg: 'RS256', use: 'sig' });
  const jwks = async (): Promise<JSONWebKeySet> => {
    // A token signed just before a rotation lives ttl seconds more; the minute covers clock skew.
    const since = new Date(now().getTime() - (ttlSeconds + 60) * 1000);
    return { keys: await Promise.all((await keys.published(since)).map(jwk)) };
  };
  return {
    async issue({ issuer, customer, clientId }) {
      const key = await keys.active();
      const privateKey = createPrivateKey(key.privateKeyPem);
      const iat = Math.floor(now().getTime() / 1000);
      const sign = (typ: string, audience: string) =>
        new SignJWT({ typ, azp: clientId, realm: customer, scope: 'openid' })
          .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: key.kid })
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
    jwks,
    async keyResolver() {
      return createLocalJWKSet(await jwks());
    },
  };
}

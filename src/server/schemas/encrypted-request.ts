import { Type, type Static } from '@sinclair/typebox';

/**
 * A base64 string member (standard alphabet; a bad one is the spec's 400 -5).
 *
 * @example
 * const Frame = Type.Object({ data: Base64('JPEG or PNG frame') });
 */
export const Base64 = (description: string) => Type.String({ format: 'base64', description });

/** The `{key, iv, p}` package of the capture software (DESIGN.md §5), taken by every `*Encrypted` call. */
export const EncryptedRequest = Type.Object(
  {
    key: Base64('AES-256 key encrypted with RSA-OAEP-SHA256 under the service public key'),
    iv: Base64('12-byte AES-GCM nonce'),
    p: Base64('AES-256-GCM ciphertext followed by its 16-byte tag'),
  },
  { description: 'encrypted request' },
);
export type EncryptedRequest = Static<typeof EncryptedRequest>;

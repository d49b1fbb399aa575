import { Type, type Static } from '@sinclair/typebox';

const Base64 = (description: string) => Type.String({ format: 'base64', description });

/** The `{key, iv, p}` package of the capture software (DESIGN.md §5). */
export const EncryptedRequest = Type.Object(
  {
    key: Base64('AES-256 key encrypted with RSA-OAEP-SHA256 under the service public key'),
    iv: Base64('12-byte AES-GCM nonce'),
    p: Base64('AES-256-GCM ciphertext followed by its 16-byte tag'),
  },
  { description: 'encrypted request' },
);
export type EncryptedRequest = Static<typeof EncryptedRequest>;

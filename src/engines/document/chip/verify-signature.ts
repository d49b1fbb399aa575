import { constants, verify, type KeyObject } from 'node:crypto';
import type { SignatureScheme } from './signature-scheme.js';

/**
 * Checks a signature with node:crypto under the scheme the SignerInfo or certificate named: the key's type
 * must fit the scheme (an EC key never passes an RSA scheme), RSA-PSS with its salt length, ECDSA in DER or
 * plain (r ‖ s) encoding. A signature that is malformed for its scheme is false, not an error.
 *
 * @example
 * verifySignature(dsKey, { kind: 'ecdsa', hash: 'sha256', encoding: 'der' }, signedAttributes, signature); // true
 */
export function verifySignature(
  key: KeyObject,
  scheme: SignatureScheme,
  data: Uint8Array,
  signature: Uint8Array,
): boolean {
  const type = key.asymmetricKeyType;
  try {
    switch (scheme.kind) {
      case 'rsa-pkcs1':
        return type === 'rsa' && verify(scheme.hash, data, { key, padding: constants.RSA_PKCS1_PADDING }, signature);
      case 'rsa-pss':
        return (
          (type === 'rsa' || type === 'rsa-pss') &&
          verify(
            scheme.hash,
            data,
            { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: scheme.saltLength },
            signature,
          )
        );
      case 'ecdsa':
        return type === 'ec' && verify(scheme.hash, data, { key, dsaEncoding: scheme.encoding }, signature);
    }
  } catch {
    // OpenSSL refuses some malformed signatures (wrong length, bad DER) by throwing: they do not verify.
    return false;
  }
}

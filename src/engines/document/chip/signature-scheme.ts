import { AsnConvert } from '@peculiar/asn1-schema';
import { AlgorithmIdentifier } from '@peculiar/asn1-x509';
import { RsaSaPssParams } from '@peculiar/asn1-rsa';
import { ChipDataError } from './chip-data-error.js';
import { hashName, type HashName } from './hash-algorithm.js';

/** How a signature is checked: the key family, the hash, and for RSA-PSS the salt, for ECDSA the encoding. */
export type SignatureScheme =
  | { readonly kind: 'rsa-pkcs1'; readonly hash: HashName }
  | { readonly kind: 'rsa-pss'; readonly hash: HashName; readonly saltLength: number }
  | { readonly kind: 'ecdsa'; readonly hash: HashName; readonly encoding: 'der' | 'ieee-p1363' };

const RSA_ENCRYPTION = '1.2.840.113549.1.1.1';
const RSASSA_PSS = '1.2.840.113549.1.1.10';
const MGF1 = '1.2.840.113549.1.1.8';
const EC_PUBLIC_KEY = '1.2.840.10045.2.1';

/** RSA PKCS#1 v1.5 and ECDSA (X9.62, DER signatures) OIDs that name their hash. */
const HASHED: Readonly<Record<string, { kind: 'rsa-pkcs1' | 'ecdsa'; hash: HashName }>> = {
  '1.2.840.113549.1.1.5': { kind: 'rsa-pkcs1', hash: 'sha1' },
  '1.2.840.113549.1.1.14': { kind: 'rsa-pkcs1', hash: 'sha224' },
  '1.2.840.113549.1.1.11': { kind: 'rsa-pkcs1', hash: 'sha256' },
  '1.2.840.113549.1.1.12': { kind: 'rsa-pkcs1', hash: 'sha384' },
  '1.2.840.113549.1.1.13': { kind: 'rsa-pkcs1', hash: 'sha512' },
  '1.2.840.10045.4.1': { kind: 'ecdsa', hash: 'sha1' },
  '1.2.840.10045.4.3.1': { kind: 'ecdsa', hash: 'sha224' },
  '1.2.840.10045.4.3.2': { kind: 'ecdsa', hash: 'sha256' },
  '1.2.840.10045.4.3.3': { kind: 'ecdsa', hash: 'sha384' },
  '1.2.840.10045.4.3.4': { kind: 'ecdsa', hash: 'sha512' },
};

/** BSI TR-03111 plain ECDSA (r ‖ s, not DER), used by German and other documents. */
const PLAIN_ECDSA: Readonly<Record<string, HashName>> = {
  '0.4.0.127.0.7.1.1.4.1.1': 'sha1',
  '0.4.0.127.0.7.1.1.4.1.2': 'sha224',
  '0.4.0.127.0.7.1.1.4.1.3': 'sha256',
  '0.4.0.127.0.7.1.1.4.1.4': 'sha384',
  '0.4.0.127.0.7.1.1.4.1.5': 'sha512',
};

/**
 * The scheme a signature algorithm identifier names, with its parameters read from it (RSA-PSS's hash, MGF1
 * hash and salt length; RFC 4055 defaults SHA-1 and 20 when absent). A bare `rsaEncryption` or
 * `id-ecPublicKey` (some issuers put the key's OID there) takes the hash of `digestAlgorithm`.
 *
 * @example
 * signatureScheme(signerInfo.signatureAlgorithm, signerInfo.digestAlgorithm);
 * // { kind: 'ecdsa', hash: 'sha256', encoding: 'der' }
 * @throws {ChipDataError} `UNSUPPORTED_ALGORITHM` for another algorithm, or RSA-PSS whose MGF1 hash differs from
 * its message hash (node:crypto ties the two) or whose trailer is not 1
 */
export function signatureScheme(
  algorithm: AlgorithmIdentifier,
  digestAlgorithm?: AlgorithmIdentifier,
): SignatureScheme {
  const oid = algorithm.algorithm;
  const hashed = HASHED[oid];
  if (hashed !== undefined) {
    return hashed.kind === 'ecdsa' ? { ...hashed, kind: 'ecdsa', encoding: 'der' } : { ...hashed, kind: 'rsa-pkcs1' };
  }
  const plain = PLAIN_ECDSA[oid];
  if (plain !== undefined) return { kind: 'ecdsa', hash: plain, encoding: 'ieee-p1363' };
  if (oid === RSASSA_PSS) return pssScheme(algorithm);
  if ((oid === RSA_ENCRYPTION || oid === EC_PUBLIC_KEY) && digestAlgorithm !== undefined) {
    const hash = hashName(digestAlgorithm);
    return oid === RSA_ENCRYPTION ? { kind: 'rsa-pkcs1', hash } : { kind: 'ecdsa', hash, encoding: 'der' };
  }
  throw new ChipDataError('UNSUPPORTED_ALGORITHM', `signature algorithm ${oid} is not supported`);
}

function pssScheme(algorithm: AlgorithmIdentifier): SignatureScheme {
  const params =
    algorithm.parameters === null || algorithm.parameters === undefined
      ? new RsaSaPssParams()
      : AsnConvert.parse(algorithm.parameters, RsaSaPssParams);
  const hash = hashName(params.hashAlgorithm);
  if (params.maskGenAlgorithm.algorithm !== MGF1 || params.maskGenAlgorithm.parameters == null) {
    throw new ChipDataError('UNSUPPORTED_ALGORITHM', 'RSA-PSS with a mask generation other than MGF1');
  }
  const mgfHash = hashName(AsnConvert.parse(params.maskGenAlgorithm.parameters, AlgorithmIdentifier));
  if (mgfHash !== hash) {
    throw new ChipDataError('UNSUPPORTED_ALGORITHM', `RSA-PSS with MGF1-${mgfHash} over ${hash} is not supported`);
  }
  if (params.trailerField !== 1) throw new ChipDataError('UNSUPPORTED_ALGORITHM', 'RSA-PSS trailer field is not 1');
  return { kind: 'rsa-pss', hash, saltLength: params.saltLength };
}

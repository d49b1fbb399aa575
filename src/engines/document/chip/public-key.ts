import { createPublicKey, type KeyObject } from 'node:crypto';
import { ECParameters } from '@peculiar/asn1-ecc';
import { AsnConvert } from '@peculiar/asn1-schema';
import { AlgorithmIdentifier, SubjectPublicKeyInfo } from '@peculiar/asn1-x509';
import { parseAsn } from './asn1-parse.js';
import { ChipDataError } from './chip-data-error.js';
import { namedCurveOf } from './explicit-curves.js';

const EC_PUBLIC_KEY = '1.2.840.10045.2.1';

/**
 * The node:crypto key of a certificate's SubjectPublicKeyInfo. An EC key with explicit domain parameters
 * is re-encoded with the OID of the named curve those parameters are (brainpool or NIST), so OpenSSL takes
 * it by name; RSA and RSA-PSS keys are taken as they are.
 *
 * @example
 * const key = publicKeyOf(certificate.tbsCertificate.subjectPublicKeyInfo);
 * key.asymmetricKeyDetails?.namedCurve; // 'brainpoolP256r1'
 * @throws {ChipDataError} `CERTIFICATE` for a key node:crypto cannot read, `UNSUPPORTED_ALGORITHM` for explicit
 * parameters of a curve outside ICAO's list
 */
export function publicKeyOf(spki: SubjectPublicKeyInfo): KeyObject {
  let info = spki;
  const { parameters } = spki.algorithm;
  if (spki.algorithm.algorithm === EC_PUBLIC_KEY && parameters != null) {
    const ec = parseAsn(parameters, ECParameters, 'CERTIFICATE', 'the EC key parameters');
    if (ec.specifiedCurve !== undefined) {
      const named = namedCurveOf(ec.specifiedCurve);
      if (named === null) {
        throw new ChipDataError('UNSUPPORTED_ALGORITHM', 'an EC key on explicit parameters of no known named curve');
      }
      info = new SubjectPublicKeyInfo({
        algorithm: new AlgorithmIdentifier({
          algorithm: EC_PUBLIC_KEY,
          parameters: AsnConvert.serialize(new ECParameters({ namedCurve: named })),
        }),
        subjectPublicKey: spki.subjectPublicKey,
      });
    }
  }
  try {
    return createPublicKey({ key: Buffer.from(AsnConvert.serialize(info)), format: 'der', type: 'spki' });
  } catch {
    throw new ChipDataError('CERTIFICATE', 'a certificate public key that node:crypto cannot read');
  }
}

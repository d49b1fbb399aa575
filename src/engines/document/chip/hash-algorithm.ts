import type { AlgorithmIdentifier } from '@peculiar/asn1-x509';
import { ChipDataError } from './chip-data-error.js';

/** The hash functions ICAO 9303-12 allows for data-group hashes and signatures, by node:crypto name. */
export type HashName = 'sha1' | 'sha224' | 'sha256' | 'sha384' | 'sha512';

const HASH_OIDS: Readonly<Record<string, HashName>> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.4': 'sha224',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

/**
 * The node:crypto name of a hash algorithm identifier.
 *
 * @example
 * hashName(new AlgorithmIdentifier({ algorithm: '2.16.840.1.101.3.4.2.1' })); // 'sha256'
 * @throws {ChipDataError} `UNSUPPORTED_ALGORITHM` for any other OID
 */
export function hashName(algorithm: AlgorithmIdentifier): HashName {
  const name = HASH_OIDS[algorithm.algorithm];
  if (name === undefined) {
    throw new ChipDataError('UNSUPPORTED_ALGORITHM', `hash algorithm ${algorithm.algorithm} is not an ICAO 9303 hash`);
  }
  return name;
}

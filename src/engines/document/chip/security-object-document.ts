import { parseAsn } from './asn1-parse.js';
import { readTlv } from './ber-tlv.js';
import { ChipDataError } from './chip-data-error.js';
import { readSignedContent, type SignedContent } from './cms-signed-data.js';
import { hashName, type HashName } from './hash-algorithm.js';
import { LdsSecurityObject } from './lds-security-object.js';

/** EF.SOD's application tag (ICAO 9303-10 §4.6.2) around the ContentInfo. */
const SOD_TAG = 0x77;
/** id-icao-mrtd-security-ldsSecurityObject. */
export const LDS_SECURITY_OBJECT = '2.23.136.1.1.1';

/** EF.SOD read: the SignedData, and the data-group hashes it signs. */
export interface SecurityObjectDocument extends SignedContent {
  readonly hashAlgorithm: HashName;
  /** Data-group number → hash as stored. */
  readonly dataGroupHashes: ReadonlyMap<number, Uint8Array>;
}

/**
 * Reads EF.SOD: tag 77 around a ContentInfo whose SignedData encapsulates an LDSSecurityObject. The bare
 * ContentInfo (without 77, as some readers export it) is accepted too.
 *
 * @example
 * const sod = readSecurityObject(sodBytes);
 * sod.hashAlgorithm; // 'sha256'
 * [...sod.dataGroupHashes.keys()]; // [1, 2]
 * @throws {ChipDataError} `SECURITY_OBJECT` when it is not that, `UNSUPPORTED_ALGORITHM` for a hash outside ICAO's
 */
export function readSecurityObject(bytes: Uint8Array): SecurityObjectDocument {
  let contentInfo = bytes;
  if (bytes[0] === SOD_TAG) {
    try {
      contentInfo = readTlv(bytes).value;
    } catch {
      throw new ChipDataError('SECURITY_OBJECT', 'EF.SOD is cut short');
    }
  }
  const signed = readSignedContent(contentInfo, LDS_SECURITY_OBJECT, 'SECURITY_OBJECT', 'EF.SOD');
  const lds = parseAsn(signed.content, LdsSecurityObject, 'SECURITY_OBJECT', 'the LDS security object');
  const dataGroupHashes = new Map<number, Uint8Array>();
  for (const entry of lds.dataGroupHashValues) {
    const number = entry.dataGroupNumber;
    if (!Number.isInteger(number) || number < 1 || number > 16 || dataGroupHashes.has(number)) {
      throw new ChipDataError('SECURITY_OBJECT', `the LDS security object lists data group ${number} wrongly`);
    }
    dataGroupHashes.set(number, new Uint8Array(entry.dataGroupHashValue.buffer));
  }
  return { ...signed, hashAlgorithm: hashName(lds.hashAlgorithm), dataGroupHashes };
}

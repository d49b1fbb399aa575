import { AsnProp, AsnPropTypes } from '@peculiar/asn1-schema';
import { Certificate } from '@peculiar/asn1-x509';
import { parseAsn } from './asn1-parse.js';
import { certificateDer, isSignedBy, readCertificate, type ChipCertificate } from './chip-certificate.js';
import { ChipDataError } from './chip-data-error.js';
import { identifiesSigner, readSignedContent, verifySigner } from './cms-signed-data.js';
import { sameName } from './distinguished-name.js';

/** id-icao-cscaMasterList (ICAO 9303-12 §9). */
export const CSCA_MASTER_LIST = '2.23.136.1.1.2';

/** `CscaMasterList ::= SEQUENCE { version INTEGER, certList SET OF Certificate }`. */
export class CscaMasterList {
  version = 0;
  certList: Certificate[] = [];
}
AsnProp({ type: AsnPropTypes.Integer })(CscaMasterList.prototype, 'version');
AsnProp({ type: Certificate, repeated: 'set' })(CscaMasterList.prototype, 'certList');

/** A master list read and its signature checked. */
export interface MasterList {
  readonly certificates: readonly ChipCertificate[];
  /** The master list signer's subject. */
  readonly signer: string;
  /** Certificates of the list that could not be read (left out). */
  readonly skipped: number;
}

/**
 * Reads an ICAO master list (a CMS SignedData over a CscaMasterList, the `.ml` files ICAO's PKD and states
 * publish) and checks that it is what its signer signed: the SignerInfo verifies with the master-list signer
 * certificate it carries, and that certificate is signed by one of the CSCAs in the list. That proves the
 * file intact as its publisher signed it; whether to trust the publisher is the operator's choice.
 *
 * @example
 * const list = readMasterList(readFileSync('ICAO_ml_2026.ml'));
 * list.certificates.length; // 500+
 * @throws {ChipDataError} `MASTER_LIST` when it is no master list, or its signature or signer does not hold
 */
export function readMasterList(bytes: Uint8Array): MasterList {
  const signed = readSignedContent(bytes, CSCA_MASTER_LIST, 'MASTER_LIST', 'the master list');
  const list = parseAsn(signed.content, CscaMasterList, 'MASTER_LIST', 'the CSCA master list');
  // A certificate this reader cannot take (a rare encoding) is skipped and counted, not fatal to the whole list.
  let skipped = 0;
  const certificates = list.certList.flatMap((c, i) => {
    try {
      return [readCertificate(certificateDer(c), `master list certificate ${i}`)];
    } catch (error) {
      if (!(error instanceof ChipDataError)) throw error;
      skipped += 1;
      return [];
    }
  });
  const signer = signed.certificates.find((c) => identifiesSigner(signed.signer, c));
  if (signer === undefined)
    throw new ChipDataError('MASTER_LIST', 'the master list does not carry its signer certificate');
  if (verifySigner(signed, signer) !== null) {
    throw new ChipDataError('MASTER_LIST', 'the master list signature does not verify: the file is altered or damaged');
  }
  const issued = [...certificates, ...signed.certificates].some(
    (csca) => csca !== signer && sameName(signer.issuer, csca.subject) && signs(csca, signer),
  );
  if (!issued) {
    throw new ChipDataError(
      'MASTER_LIST',
      `the master list signer (${signer.subjectText}) is issued by no CSCA it carries`,
    );
  }
  return { certificates, signer: signer.subjectText, skipped };
}

function signs(issuer: ChipCertificate, subject: ChipCertificate): boolean {
  try {
    return isSignedBy(subject, issuer);
  } catch (error) {
    if (error instanceof ChipDataError) return false;
    throw error;
  }
}

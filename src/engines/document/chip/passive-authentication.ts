import { createHash } from 'node:crypto';
import { MrzInputError } from '../mrz/mrz-input-error.js';
import { parseMrz } from '../mrz/parse-mrz.js';
import { buildCertificateChain, type ChainFinding } from './certificate-chain.js';
import { readCertificate, type ChipCertificate } from './chip-certificate.js';
import { ChipDataError } from './chip-data-error.js';
import { identifiesSigner, verifySigner, type SignerFailure } from './cms-signed-data.js';
import { countryOfIssuingState } from './country-codes.js';
import { readDataGroup1Mrz } from './data-group-1.js';
import { readSecurityObject } from './security-object-document.js';
import type { TrustStore } from './trust-store.js';

/** The chip's files as read by the capture device (ICAO 9303-10 elementary files, as stored). */
export interface ChipFiles {
  /** Data-group number (1–16) → EF.DGn bytes; DG1 is required. */
  readonly dataGroups: ReadonlyMap<number, Uint8Array>;
  /** EF.SOD. */
  readonly sod: Uint8Array;
  /** The DS certificate when EF.SOD does not carry it (DER). */
  readonly dsCertificate?: Uint8Array | undefined;
}

/**
 * PASS: everything holds; FAIL: the data is not what the SOD signs (hash, signature); INCORRECT_DS_CERTIFICATE:
 * the signature holds but its certificate does not lead to a trusted CSCA, or belongs to another country;
 * NOT_SUPPORTED: an algorithm outside ICAO 9303-12's list.
 */
export type PassiveAuthenticationStatus = 'PASS' | 'FAIL' | 'INCORRECT_DS_CERTIFICATE' | 'NOT_SUPPORTED';

export interface PassiveAuthentication {
  readonly status: PassiveAuthenticationStatus;
  /** Every check that failed, as `security.reasons` codes (docs/documents.md, Chip). */
  readonly findings: readonly string[];
  /** The data groups given and how their hashes compared. */
  readonly dataGroups: readonly { readonly number: number; readonly hash: 'VALID' | 'INVALID' | 'NOT_IN_SOD' }[];
  readonly documentSigner: ChipCertificate | null;
  readonly csca: ChipCertificate | null;
  /** DG1's MRZ lines. */
  readonly dg1Mrz: readonly string[];
}

const SIGNER_FINDING: Readonly<Record<SignerFailure, string>> = {
  MESSAGE_DIGEST: 'CHIP_SOD_MESSAGE_DIGEST_MISMATCH',
  CONTENT_TYPE: 'CHIP_SOD_CONTENT_TYPE_MISMATCH',
  SIGNATURE: 'CHIP_SOD_SIGNATURE_INVALID',
};

/** Findings that make the result INCORRECT_DS_CERTIFICATE rather than FAIL. */
const CERTIFICATE_FINDINGS = new Set<string>([
  'CHIP_DS_CERTIFICATE_MISSING',
  'CHIP_ISSUING_STATE_COUNTRY_MISMATCH',
  ...([
    'CHIP_CSCA_UNKNOWN',
    'CHIP_DS_CERTIFICATE_SIGNATURE_INVALID',
    'CHIP_DS_CERTIFICATE_ALGORITHM_NOT_SUPPORTED',
    'CHIP_DS_CERTIFICATE_EXPIRED',
    'CHIP_DS_CERTIFICATE_NOT_YET_VALID',
    'CHIP_CSCA_CERTIFICATE_EXPIRED',
    'CHIP_CSCA_CERTIFICATE_NOT_YET_VALID',
    'CHIP_CERTIFICATE_COUNTRY_MISMATCH',
  ] satisfies ChainFinding[]),
]);

/**
 * Passive authentication (ICAO 9303-11 §5.1) of chip files: EF.SOD parsed; every data group given hashed with
 * the LDS object's algorithm and compared with its signed hash; the DS certificate (in EF.SOD or given) chosen
 * by the SignerInfo's issuer and serial or key identifier, and the SignerInfo verified with it; DS → CSCA built
 * against the trust store with validity at `now`; the country of the certificates compared with DG1's issuing
 * state. Every failure is a finding; the status says which kind dominates (data over certificate). DG1 against
 * the printed MRZ is the caller's comparison (`compareMrzFields`).
 *
 * @example
 * const result = passiveAuthentication({ dataGroups: new Map([[1, dg1], [2, dg2]]), sod }, trust, new Date());
 * result.status; // 'PASS'
 * @throws {ChipDataError} for files that do not parse (not for failed checks)
 */
export function passiveAuthentication(files: ChipFiles, trust: TrustStore, now: Date): PassiveAuthentication {
  const dg1 = files.dataGroups.get(1);
  if (dg1 === undefined) throw new ChipDataError('DATA_GROUP', 'DG1 is required');
  const dg1Mrz = readDataGroup1Mrz(dg1);
  const given = files.dsCertificate === undefined ? [] : [readCertificate(files.dsCertificate, 'the DS certificate')];
  let sod;
  try {
    sod = readSecurityObject(files.sod);
  } catch (error) {
    if (error instanceof ChipDataError && error.problem === 'UNSUPPORTED_ALGORITHM') return notSupported(dg1Mrz);
    throw error;
  }
  const findings: string[] = [];
  const dataGroups = [...files.dataGroups.entries()]
    .sort(([a], [b]) => a - b)
    .map(([number, bytes]) => {
      const signed = sod.dataGroupHashes.get(number);
      if (signed === undefined) {
        findings.push(`CHIP_DG${number}_NOT_IN_SOD`);
        return { number, hash: 'NOT_IN_SOD' as const };
      }
      const valid = createHash(sod.hashAlgorithm).update(bytes).digest().equals(signed);
      if (!valid) findings.push(`CHIP_DG${number}_HASH_MISMATCH`);
      return { number, hash: valid ? ('VALID' as const) : ('INVALID' as const) };
    });
  const documentSigner = [...sod.certificates, ...given].find((c) => identifiesSigner(sod.signer, c)) ?? null;
  let csca: ChipCertificate | null = null;
  if (documentSigner === null) findings.push('CHIP_DS_CERTIFICATE_MISSING');
  else {
    let failure: SignerFailure | null;
    try {
      failure = verifySigner(sod, documentSigner);
    } catch (error) {
      if (error instanceof ChipDataError && error.problem === 'UNSUPPORTED_ALGORITHM') return notSupported(dg1Mrz);
      throw error;
    }
    if (failure !== null) findings.push(SIGNER_FINDING[failure]);
    const chain = buildCertificateChain(documentSigner, trust, now);
    csca = chain.csca;
    findings.push(...chain.findings);
    const country = countryOfIssuingState(issuingStateOf(dg1Mrz));
    if (country === null || country !== documentSigner.country) findings.push('CHIP_ISSUING_STATE_COUNTRY_MISMATCH');
  }
  const status: PassiveAuthenticationStatus =
    findings.length === 0
      ? 'PASS'
      : findings.every((f) => CERTIFICATE_FINDINGS.has(f))
        ? 'INCORRECT_DS_CERTIFICATE'
        : 'FAIL';
  return { status, findings, dataGroups, documentSigner, csca, dg1Mrz };
}

function notSupported(dg1Mrz: readonly string[]): PassiveAuthentication {
  return {
    status: 'NOT_SUPPORTED',
    findings: ['CHIP_ALGORITHM_NOT_SUPPORTED'],
    dataGroups: [],
    documentSigner: null,
    csca: null,
    dg1Mrz,
  };
}

function issuingStateOf(lines: readonly string[]): string {
  try {
    return parseMrz(lines).fields.issuingState.raw;
  } catch (error) {
    if (error instanceof MrzInputError) throw new ChipDataError('DATA_GROUP', `DG1's MRZ: ${error.message}`);
    throw error;
  }
}

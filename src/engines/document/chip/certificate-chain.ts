import { isSignedBy, type ChipCertificate } from './chip-certificate.js';
import { ChipDataError } from './chip-data-error.js';
import type { TrustStore } from './trust-store.js';

/** Why the document signer certificate does not lead to a trusted CSCA (the reasons of `incorrectDsCertificate`). */
export type ChainFinding =
  | 'CHIP_CSCA_UNKNOWN'
  | 'CHIP_DS_CERTIFICATE_SIGNATURE_INVALID'
  | 'CHIP_DS_CERTIFICATE_ALGORITHM_NOT_SUPPORTED'
  | 'CHIP_DS_CERTIFICATE_EXPIRED'
  | 'CHIP_DS_CERTIFICATE_NOT_YET_VALID'
  | 'CHIP_CSCA_CERTIFICATE_EXPIRED'
  | 'CHIP_CSCA_CERTIFICATE_NOT_YET_VALID'
  | 'CHIP_CERTIFICATE_COUNTRY_MISMATCH';

export interface CertificateChain {
  /** The trusted CSCA whose key signed the DS certificate; null when none did. */
  readonly csca: ChipCertificate | null;
  readonly findings: ChainFinding[];
}

/**
 * Builds DS → CSCA: among the trust store's candidates for the DS certificate's issuer (names, key identifiers,
 * serial), the one whose key verifies the DS certificate's signature; then both validity periods at `now`, and
 * one country across the DS subject, the DS issuer and the CSCA (ICAO 9303-12: a CSCA signs only its own
 * state's DS certificates). The CSCA is a trust anchor: its own signature is not checked. Link certificates
 * are not followed: every CSCA in use must be in the store (a master list holds them all).
 *
 * @example
 * const chain = buildCertificateChain(ds, trust, new Date());
 * chain.findings; // [] when the chain holds
 */
export function buildCertificateChain(ds: ChipCertificate, trust: TrustStore, now: Date): CertificateChain {
  const findings: ChainFinding[] = [];
  const candidates = trust.issuerCandidates(ds);
  let csca: ChipCertificate | null = null;
  let unsupported = false;
  for (const candidate of candidates) {
    try {
      if (isSignedBy(ds, candidate)) {
        csca = candidate;
        break;
      }
    } catch (error) {
      if (!(error instanceof ChipDataError)) throw error;
      unsupported = true;
    }
  }
  if (candidates.length === 0) findings.push('CHIP_CSCA_UNKNOWN');
  else if (csca === null)
    findings.push(
      unsupported ? 'CHIP_DS_CERTIFICATE_ALGORITHM_NOT_SUPPORTED' : 'CHIP_DS_CERTIFICATE_SIGNATURE_INVALID',
    );
  if (now < ds.notBefore) findings.push('CHIP_DS_CERTIFICATE_NOT_YET_VALID');
  if (now > ds.notAfter) findings.push('CHIP_DS_CERTIFICATE_EXPIRED');
  if (csca !== null) {
    if (now < csca.notBefore) findings.push('CHIP_CSCA_CERTIFICATE_NOT_YET_VALID');
    if (now > csca.notAfter) findings.push('CHIP_CSCA_CERTIFICATE_EXPIRED');
  }
  const countries = new Set([ds.country, ds.issuerCountry, ...(csca === null ? [] : [csca.country])]);
  if (countries.size !== 1 || countries.has(null)) findings.push('CHIP_CERTIFICATE_COUNTRY_MISMATCH');
  return { csca, findings };
}

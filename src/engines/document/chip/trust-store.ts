import type { ChipCertificate } from './chip-certificate.js';
import { sameName } from './distinguished-name.js';

/** The CSCA certificates passive authentication trusts (trust anchors: they are not themselves checked). */
export interface TrustStore {
  readonly certificates: readonly ChipCertificate[];
  /**
   * The trusted certificates that may have issued `certificate`: subject equal to its issuer with no key
   * identifier or serial contradicting its authority key identifier, or, whatever the names, the subject key
   * identifier its authority key identifier names. The signature decides among them.
   */
  issuerCandidates(certificate: ChipCertificate): ChipCertificate[];
}

/**
 * A trust store over certificates (duplicates, by fingerprint, kept once).
 *
 * @example
 * const trust = trustStore([readCertificate(cscaDer, 'csca.der')]);
 * trust.issuerCandidates(ds).length; // 1
 */
export function trustStore(certificates: readonly ChipCertificate[]): TrustStore {
  const unique = [...new Map(certificates.map((c) => [c.fingerprint, c])).values()];
  return {
    certificates: unique,
    issuerCandidates(certificate) {
      return unique.filter((csca) => {
        const byKeyId = certificate.authorityKeyId !== null && csca.subjectKeyId === certificate.authorityKeyId;
        if (byKeyId) return true;
        if (!sameName(csca.subject, certificate.issuer)) return false;
        const keyIdAgrees =
          certificate.authorityKeyId === null ||
          csca.subjectKeyId === null ||
          csca.subjectKeyId === certificate.authorityKeyId;
        const serialAgrees = certificate.authoritySerial === null || certificate.authoritySerial === csca.serial;
        return keyIdAgrees && serialAgrees;
      });
    },
  };
}

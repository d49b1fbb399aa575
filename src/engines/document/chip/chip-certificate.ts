import type { KeyObject } from 'node:crypto';
import { createHash } from 'node:crypto';
import { AsnConvert } from '@peculiar/asn1-schema';
import {
  AuthorityKeyIdentifier,
  Certificate,
  SubjectKeyIdentifier,
  id_ce_authorityKeyIdentifier,
  id_ce_subjectKeyIdentifier,
  type Name,
} from '@peculiar/asn1-x509';
import { parseAsn } from './asn1-parse.js';
import { readTlv, readTlvList } from './ber-tlv.js';
import { ChipDataError } from './chip-data-error.js';
import { countryOfName, nameText } from './distinguished-name.js';
import { publicKeyOf } from './public-key.js';
import { signatureScheme } from './signature-scheme.js';
import { verifySignature } from './verify-signature.js';

/** A parsed X.509 certificate with what chain building reads from it. */
export interface ChipCertificate {
  readonly der: Uint8Array;
  readonly certificate: Certificate;
  readonly subject: Name;
  readonly issuer: Name;
  /** Serial number as lower-case hex of its DER content octets. */
  readonly serial: string;
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** The subject key identifier extension, hex (all bytes); null when absent. */
  readonly subjectKeyId: string | null;
  /** The authority key identifier's key identifier, hex; null when absent. */
  readonly authorityKeyId: string | null;
  /** The authority key identifier's issuer serial, hex; null when absent. */
  readonly authoritySerial: string | null;
  /** Subject's country (`C`), upper case; null when absent. */
  readonly country: string | null;
  readonly issuerCountry: string | null;
  /** SHA-256 of the DER, hex: a stable name for files and listings. */
  readonly fingerprint: string;
  /** `C=.., CN=..` of the subject, for messages. */
  readonly subjectText: string;
}

/**
 * Parses a DER X.509 certificate.
 *
 * @example
 * const ds = readCertificate(der, 'the DS certificate');
 * ds.country; // 'UT'
 * @throws {ChipDataError} `CERTIFICATE` when the bytes are no X.509 certificate
 */
export function readCertificate(der: Uint8Array, what: string): ChipCertificate {
  const certificate = parseAsn(der, Certificate, 'CERTIFICATE', what);
  const tbs = certificate.tbsCertificate;
  let subjectKeyId: string | null = null;
  let authorityKeyId: string | null = null;
  let authoritySerial: string | null = null;
  for (const extension of tbs.extensions ?? []) {
    if (extension.extnID === id_ce_subjectKeyIdentifier) {
      const id = parseAsn(extension.extnValue.buffer, SubjectKeyIdentifier, 'CERTIFICATE', `${what}'s key identifier`);
      subjectKeyId = Buffer.from(id.buffer).toString('hex');
    } else if (extension.extnID === id_ce_authorityKeyIdentifier) {
      const aki = parseAsn(
        extension.extnValue.buffer,
        AuthorityKeyIdentifier,
        'CERTIFICATE',
        `${what}'s authority key identifier`,
      );
      if (aki.keyIdentifier !== undefined) authorityKeyId = Buffer.from(aki.keyIdentifier.buffer).toString('hex');
      if (aki.authorityCertSerialNumber !== undefined) authoritySerial = serialHex(aki.authorityCertSerialNumber);
    }
  }
  return {
    der,
    certificate,
    subject: tbs.subject,
    issuer: tbs.issuer,
    serial: serialHex(tbs.serialNumber),
    notBefore: tbs.validity.notBefore.getTime(),
    notAfter: tbs.validity.notAfter.getTime(),
    subjectKeyId,
    authorityKeyId,
    authoritySerial,
    country: countryOfName(tbs.subject),
    issuerCountry: countryOfName(tbs.issuer),
    fingerprint: createHash('sha256').update(der).digest('hex'),
    subjectText: nameText(tbs.subject),
  };
}

/**
 * The certificate's public key for node:crypto (explicit EC parameters mapped to their named curve).
 *
 * @example
 * verifySignature(certificatePublicKey(ds), scheme, data, signature);
 * @throws {ChipDataError} as `publicKeyOf`
 */
export function certificatePublicKey(certificate: ChipCertificate): KeyObject {
  return publicKeyOf(certificate.certificate.tbsCertificate.subjectPublicKeyInfo);
}

/**
 * Whether `issuer`'s key signed `subject`: the signature over the TBS bytes exactly as encoded in the
 * certificate, under the algorithm and parameters the certificate names (RSA-PSS salt, curve).
 *
 * @example
 * isSignedBy(ds, csca); // true
 * @throws {ChipDataError} `UNSUPPORTED_ALGORITHM` for a signature algorithm no ICAO profile names
 */
export function isSignedBy(subject: ChipCertificate, issuer: ChipCertificate): boolean {
  const [tbs] = readTlvList(readTlv(subject.der).value);
  if (tbs === undefined) throw new ChipDataError('CERTIFICATE', 'a certificate without its TBS part');
  const scheme = signatureScheme(subject.certificate.signatureAlgorithm);
  return verifySignature(
    certificatePublicKey(issuer),
    scheme,
    tbs.raw,
    new Uint8Array(subject.certificate.signatureValue),
  );
}

/**
 * PEM blocks (`-----BEGIN CERTIFICATE-----`) in a text, or the bytes as they are when they are not PEM.
 *
 * @example
 * certificateDers(readFileSync('csca.pem')).map((der) => readCertificate(der, 'csca.pem'));
 */
export function certificateDers(bytes: Uint8Array): Uint8Array[] {
  const text = Buffer.from(bytes).toString('latin1');
  const blocks = [...text.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)];
  if (blocks.length === 0) return [bytes];
  return blocks.map((block) => Buffer.from((block[1] ?? '').replace(/\s+/g, ''), 'base64'));
}

/**
 * Serialises a certificate back to DER (for certificates taken out of a CMS structure).
 *
 * @example
 * const der = certificateDer(signedData.certificates[0].certificate);
 */
export function certificateDer(certificate: Certificate): Uint8Array {
  return new Uint8Array(AsnConvert.serialize(certificate));
}

/**
 * A serial number as lower-case hex without the sign-padding zero bytes, so the certificate's serial, a
 * SignerInfo's and an authority key identifier's compare equal however each was padded.
 *
 * @example
 * serialHex(new Uint8Array([0, 0x8f, 1]).buffer); // '8f01'
 */
export function serialHex(bytes: ArrayBuffer): string {
  return Buffer.from(bytes)
    .toString('hex')
    .replace(/^(00)+(?=.)/, '');
}

import { createHash } from 'node:crypto';
import {
  Attribute,
  ContentInfo,
  SignedData,
  SignerInfo,
  id_contentType,
  id_messageDigest,
  id_signedData,
} from '@peculiar/asn1-cms';
import { AsnArray, AsnConvert, AsnType, AsnTypeTypes, OctetString } from '@peculiar/asn1-schema';
import { readTlv, readTlvList } from './ber-tlv.js';
import { parseAsn } from './asn1-parse.js';
import {
  certificateDer,
  certificatePublicKey,
  readCertificate,
  serialHex,
  type ChipCertificate,
} from './chip-certificate.js';
import { ChipDataError, type ChipDataProblem } from './chip-data-error.js';
import { sameName } from './distinguished-name.js';
import { hashName } from './hash-algorithm.js';
import { signatureScheme } from './signature-scheme.js';
import { verifySignature } from './verify-signature.js';

/** A CMS SignedData (RFC 5652) with one signer, as EF.SOD and ICAO master lists are. */
export interface SignedContent {
  readonly signedData: SignedData;
  readonly signer: SignerInfo;
  /** The encapsulated content's bytes (the LDS security object, the master list). */
  readonly content: Uint8Array;
  /** The certificates the SignedData carries (EF.SOD: usually the DS certificate). */
  readonly certificates: readonly ChipCertificate[];
  /** The signer's signed attributes as received (their [0] element), when the encoding could be walked. */
  readonly signedAttributesRaw: Uint8Array | null;
}

/**
 * Reads a DER ContentInfo holding a SignedData whose encapsulated content has type `contentType`.
 *
 * @example
 * const sod = readSignedContent(contentInfoDer, '2.23.136.1.1.1', 'SECURITY_OBJECT', 'EF.SOD');
 * @throws {ChipDataError} with `problem` when the structure, its content type or its single signer is not there
 */
export function readSignedContent(
  der: Uint8Array,
  contentType: string,
  problem: ChipDataProblem,
  what: string,
): SignedContent {
  const info = parseAsn(der, ContentInfo, problem, what);
  if (info.contentType !== id_signedData) throw new ChipDataError(problem, `${what} is not a CMS SignedData`);
  const signedData = parseAsn(info.content, SignedData, problem, `${what}'s SignedData`);
  if (signedData.encapContentInfo.eContentType !== contentType) {
    throw new ChipDataError(
      problem,
      `${what} encapsulates ${signedData.encapContentInfo.eContentType}, not ${contentType}`,
    );
  }
  const single = signedData.encapContentInfo.eContent?.single;
  if (single === undefined) throw new ChipDataError(problem, `${what} has no encapsulated content`);
  const [signer, ...others] = signedData.signerInfos;
  if (signer === undefined || others.length > 0) throw new ChipDataError(problem, `${what} must have one signer`);
  const certificates = (signedData.certificates ?? []).flatMap((choice) =>
    choice.certificate === undefined
      ? []
      : [readCertificate(certificateDer(choice.certificate), `a certificate in ${what}`)],
  );
  return {
    signedData,
    signer,
    content: new Uint8Array(single.buffer),
    certificates,
    signedAttributesRaw: signer.signedAttrs === undefined ? null : receivedSignedAttributes(der),
  };
}

/**
 * Whether a certificate is the one the SignerInfo names: by issuer and serial number, or by subject key
 * identifier, whichever the signer identifier carries.
 *
 * @example
 * const ds = [...sod.certificates, given].find((c) => identifiesSigner(sod.signer, c));
 */
export function identifiesSigner(signer: SignerInfo, certificate: ChipCertificate): boolean {
  const { issuerAndSerialNumber, subjectKeyIdentifier } = signer.sid;
  if (issuerAndSerialNumber !== undefined) {
    return (
      serialHex(issuerAndSerialNumber.serialNumber) === certificate.serial &&
      sameName(issuerAndSerialNumber.issuer, certificate.issuer)
    );
  }
  if (subjectKeyIdentifier !== undefined) {
    return Buffer.from(subjectKeyIdentifier.buffer).toString('hex') === certificate.subjectKeyId;
  }
  return false;
}

/** Why a SignerInfo's signature does not hold. */
export type SignerFailure = 'MESSAGE_DIGEST' | 'CONTENT_TYPE' | 'SIGNATURE';

/**
 * Verifies the SignerInfo with the signer certificate's key. With signed attributes (ICAO requires them):
 * the message-digest attribute must equal the hash of the content under the SignerInfo's digest algorithm,
 * the content-type attribute the encapsulated type, and the signature covers the attributes as DER with the
 * SET OF tag (RFC 5652 §5.4: the bytes as received, their [0] tag made 0x31). Without: the content itself.
 * The signature algorithm and its parameters come from the SignerInfo.
 *
 * @example
 * verifySigner(sod, dsCertificate); // null: valid
 * @throws {ChipDataError} `UNSUPPORTED_ALGORITHM` for a digest or signature algorithm outside ICAO's list
 */
export function verifySigner(signed: SignedContent, certificate: ChipCertificate): SignerFailure | null {
  const { signer } = signed;
  const digest = hashName(signer.digestAlgorithm);
  const scheme = signatureScheme(signer.signatureAlgorithm, signer.digestAlgorithm);
  let data: Uint8Array = signed.content;
  if (signer.signedAttrs !== undefined) {
    const attribute = (type: string): ArrayBuffer | undefined =>
      signer.signedAttrs?.find((a) => a.attrType === type)?.attrValues[0];
    const messageDigest = attribute(id_messageDigest);
    const expected = createHash(digest).update(signed.content).digest();
    if (messageDigest === undefined) return 'MESSAGE_DIGEST';
    const stated = parseAsn(messageDigest, OctetString, 'SECURITY_OBJECT', 'the message-digest attribute');
    if (!expected.equals(Buffer.from(stated.buffer))) return 'MESSAGE_DIGEST';
    const contentType = attribute(id_contentType);
    if (contentType !== undefined && !contentTypeIs(contentType, signed.signedData.encapContentInfo.eContentType)) {
      return 'CONTENT_TYPE';
    }
    data = signedAttributesDer(signed);
  }
  const ok = verifySignature(certificatePublicKey(certificate), scheme, data, new Uint8Array(signer.signature.buffer));
  return ok ? null : 'SIGNATURE';
}

/**
 * The signed attributes as the signer hashed them: the bytes as received with the SET OF tag (0x31) for their
 * [0]; re-encoded as a DER SET when the received encoding could not be walked (indefinite lengths).
 */
function signedAttributesDer(signed: SignedContent): Uint8Array {
  if (signed.signedAttributesRaw !== null) {
    const bytes = Uint8Array.from(signed.signedAttributesRaw);
    bytes[0] = 0x31;
    return bytes;
  }
  return new Uint8Array(AsnConvert.serialize(new AttributeSet(signed.signer.signedAttrs ?? [])));
}

/**
 * The first SignerInfo's [0] element in a ContentInfo's DER: ContentInfo > [0] > SignedData > signerInfos (its
 * last SET) > SignerInfo > the first child tagged A0. Null when the walk fails (the caller re-encodes instead).
 */
function receivedSignedAttributes(contentInfo: Uint8Array): Uint8Array | null {
  try {
    const [, explicit] = readTlvList(readTlv(contentInfo).value);
    if (explicit === undefined) return null;
    const signedData = readTlv(explicit.value);
    const signerInfos = readTlvList(signedData.value).at(-1);
    if (signerInfos?.tag !== 0x31) return null;
    const [signerInfo] = readTlvList(signerInfos.value);
    if (signerInfo === undefined) return null;
    return readTlvList(signerInfo.value).find((e) => e.tag === 0xa0)?.raw ?? null;
  } catch (error) {
    if (error instanceof ChipDataError) return null;
    throw error;
  }
}

/** `SET OF Attribute`, to re-encode signed attributes. */
class AttributeSet extends AsnArray<Attribute> {}
AsnType({ type: AsnTypeTypes.Set, itemType: Attribute })(AttributeSet);

function contentTypeIs(value: ArrayBuffer, oid: string): boolean {
  // The attribute value is a DER OBJECT IDENTIFIER: compare it with the encoding of the expected one.
  return Buffer.from(value).equals(objectIdentifierDer(oid));
}

/** DER of an OBJECT IDENTIFIER (X.690 §8.19): first two arcs combined, base-128 arcs, tag 06. */
function objectIdentifierDer(oid: string): Buffer {
  const arcs = oid.split('.').map(BigInt);
  const [first = 0n, second = 0n, ...rest] = arcs;
  const body: number[] = [];
  for (const arc of [first * 40n + second, ...rest]) {
    const digits: number[] = [];
    let value = arc;
    do {
      digits.unshift(Number(value & 0x7fn));
      value >>= 7n;
    } while (value > 0n);
    body.push(...digits.map((d, i) => (i < digits.length - 1 ? d | 0x80 : d)));
  }
  return Buffer.from([0x06, body.length, ...body]);
}

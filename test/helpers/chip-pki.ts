/**
 * A test PKI for passive authentication, built here and nowhere else: a CSCA, a document signer it certifies,
 * and chip files (DG1 with an MRZ, DG2 with a portrait, EF.SOD signed by the DS), all made with
 * `@peculiar/asn1-*` and node:crypto so every curve node supports (P-256, brainpoolP256r1...) and RSA-PSS can
 * be used. Options make each failure the tests need.
 */
import { constants, createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import {
  Attribute,
  CertificateChoices,
  CertificateSet,
  ContentInfo,
  EncapsulatedContent,
  EncapsulatedContentInfo,
  IssuerAndSerialNumber,
  SignedData,
  SignerIdentifier,
  SignerInfo,
  id_contentType,
  id_messageDigest,
  id_signedData,
} from '@peculiar/asn1-cms';
import { AsnArray, AsnConvert, AsnType, AsnTypeTypes, OctetString } from '@peculiar/asn1-schema';
import { RsaSaPssParams } from '@peculiar/asn1-rsa';
import {
  AlgorithmIdentifier,
  AttributeTypeAndValue,
  AttributeValue,
  AuthorityKeyIdentifier,
  BasicConstraints,
  Certificate,
  Extension,
  Extensions,
  KeyIdentifier,
  Name,
  RelativeDistinguishedName,
  SubjectKeyIdentifier,
  SubjectPublicKeyInfo,
  TBSCertificate,
  Validity,
  Version,
  id_ce_authorityKeyIdentifier,
  id_ce_basicConstraints,
  id_ce_subjectKeyIdentifier,
} from '@peculiar/asn1-x509';
import { CscaMasterList, CSCA_MASTER_LIST } from '../../src/engines/document/chip/master-list.js';
import { DataGroupHash, LdsSecurityObject } from '../../src/engines/document/chip/lds-security-object.js';
import { LDS_SECURITY_OBJECT } from '../../src/engines/document/chip/security-object-document.js';

export type TestKeyKind = 'P-256' | 'brainpoolP256r1' | 'brainpoolP384r1' | 'rsa-pss' | 'rsa';

const SHA256 = '2.16.840.1.101.3.4.2.1';
const ECDSA_SHA256 = '1.2.840.10045.4.3.2';
const RSASSA_PSS = '1.2.840.113549.1.1.10';
const SHA256_RSA = '1.2.840.113549.1.1.11';
const MGF1 = '1.2.840.113549.1.1.8';
const EC_PUBLIC_KEY = '1.2.840.10045.2.1';

/** brainpoolP256r1 spelt out (RFC 5639 domain parameters as X9.62 SpecifiedECDomain DER, from OpenSSL). */
const BRAINPOOL_P256R1_EXPLICIT = Buffer.from(
  '3081e0020101302c06072a8648ce3d0101022100a9fb57dba1eea9bc3e660a909d838d726e3bf623d52620282013481d1f6e5377' +
    '304404207d5a0975fc2c3057eef67530417affe7fb8055c126dc5c6ce94a4b44f330b5d9042026dc5c6ce94a4b44f330b5d9bbd7' +
    '7cbf958416295cf7e1ce6bccdc18ff8c07b60441048bd2aeb9cb7e57cb2c4b482ffc81b7afb9de27e1e3bd23c23a4453bd9ace32' +
    '62547ef835c3dac4fd97f8461a14611dc9c27745132ded8e545c1d54c72f046997022100a9fb57dba1eea9bc3e660a909d838d71' +
    '8c397aa3b561a6f7901e0e82974856a7020101',
  'hex',
);

export interface TestKeys {
  readonly kind: TestKeyKind;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
}

/** A key pair of the kind (RSA 2048 bits). */
export function testKeys(kind: TestKeyKind): TestKeys {
  if (kind === 'rsa' || kind === 'rsa-pss') return { kind, ...generateKeyPairSync('rsa', { modulusLength: 2048 }) };
  const namedCurve = kind === 'P-256' ? 'prime256v1' : kind;
  return { kind, ...generateKeyPairSync('ec', { namedCurve }) };
}

/** The algorithm identifier a key of this kind signs with (SHA-256; RSA-PSS with salt 32 and MGF1-SHA-256). */
function signatureAlgorithm(kind: TestKeyKind): AlgorithmIdentifier {
  if (kind === 'rsa') return new AlgorithmIdentifier({ algorithm: SHA256_RSA, parameters: null });
  if (kind === 'rsa-pss') {
    const sha256 = new AlgorithmIdentifier({ algorithm: SHA256, parameters: null });
    const params = new RsaSaPssParams({
      hashAlgorithm: sha256,
      maskGenAlgorithm: new AlgorithmIdentifier({ algorithm: MGF1, parameters: AsnConvert.serialize(sha256) }),
      saltLength: 32,
    });
    return new AlgorithmIdentifier({ algorithm: RSASSA_PSS, parameters: AsnConvert.serialize(params) });
  }
  return new AlgorithmIdentifier({ algorithm: ECDSA_SHA256 });
}

function signWith(keys: TestKeys, data: Uint8Array): Buffer {
  if (keys.kind === 'rsa-pss') {
    return sign('sha256', data, { key: keys.privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 });
  }
  return sign('sha256', data, keys.kind === 'rsa' ? keys.privateKey : { key: keys.privateKey, dsaEncoding: 'der' });
}

/** `C=<country>, CN=<common name>`. */
export function testName(country: string, commonName: string): Name {
  const rdn = (type: string, value: AttributeValue) =>
    new RelativeDistinguishedName([new AttributeTypeAndValue({ type, value })]);
  return new Name([
    rdn('2.5.4.6', new AttributeValue({ printableString: country })),
    rdn('2.5.4.3', new AttributeValue({ utf8String: commonName })),
  ]);
}

export interface CertificateOptions {
  readonly subject: Name;
  readonly issuer: Name;
  readonly subjectKeys: TestKeys;
  readonly issuerKeys: TestKeys;
  readonly serial: number;
  readonly notBefore: Date;
  readonly notAfter: Date;
  readonly ca?: boolean;
  /** The issuer's subject key identifier, put in the authority key identifier. */
  readonly authorityKeyId?: Uint8Array;
  /** Writes an EC subject key with explicit brainpoolP256r1 parameters (or altered ones) instead of its name. */
  readonly explicitCurve?: boolean | 'unknown';
}

/** The key identifier we give a key: SHA-1 of its SPKI (RFC 5280 §4.2.1.2's method 1, near enough). */
export function keyIdOf(keys: TestKeys): Buffer {
  return createHash('sha1')
    .update(keys.publicKey.export({ format: 'der', type: 'spki' }))
    .digest();
}

/** A DER certificate signed by the issuer's key. */
export function testCertificate(options: CertificateOptions): Buffer {
  const spki = AsnConvert.parse(
    options.subjectKeys.publicKey.export({ format: 'der', type: 'spki' }),
    SubjectPublicKeyInfo,
  );
  if (options.explicitCurve !== undefined && options.explicitCurve !== false) {
    const parameters = new Uint8Array(BRAINPOOL_P256R1_EXPLICIT);
    // 'unknown': the same parameters with one bit of the coefficient b changed, a curve no table names.
    if (options.explicitCurve === 'unknown') parameters[90] = (parameters[90] ?? 0) ^ 1;
    spki.algorithm = new AlgorithmIdentifier({ algorithm: EC_PUBLIC_KEY, parameters: parameters.buffer });
  }
  const extension = (extnID: string, value: unknown, critical = false) =>
    new Extension({ extnID, critical, extnValue: new OctetString(AsnConvert.serialize(value)) });
  const extensions = [extension(id_ce_subjectKeyIdentifier, new SubjectKeyIdentifier(keyIdOf(options.subjectKeys)))];
  if (options.authorityKeyId !== undefined) {
    extensions.push(
      extension(
        id_ce_authorityKeyIdentifier,
        new AuthorityKeyIdentifier({ keyIdentifier: new KeyIdentifier(options.authorityKeyId) }),
      ),
    );
  }
  if (options.ca === true) extensions.push(extension(id_ce_basicConstraints, new BasicConstraints({ cA: true }), true));
  const algorithm = signatureAlgorithm(options.issuerKeys.kind);
  const tbs = new TBSCertificate({
    version: Version.v3,
    serialNumber: new Uint8Array([options.serial & 0x7f, 1, 2]).buffer,
    signature: algorithm,
    issuer: options.issuer,
    validity: new Validity({ notBefore: options.notBefore, notAfter: options.notAfter }),
    subject: options.subject,
    subjectPublicKeyInfo: spki,
    extensions: new Extensions(extensions),
  });
  const signature = signWith(options.issuerKeys, new Uint8Array(AsnConvert.serialize(tbs)));
  const certificate = new Certificate({
    tbsCertificate: tbs,
    signatureAlgorithm: algorithm,
    signatureValue: new Uint8Array(signature).buffer,
  });
  return Buffer.from(AsnConvert.serialize(certificate));
}

const DAY = 86_400_000;

/** `SET OF Attribute`: signed attributes as they are signed. */
class AttributeSet extends AsnArray<Attribute> {}
AsnType({ type: AsnTypeTypes.Set, itemType: Attribute })(AttributeSet);

export interface PkiOptions {
  readonly cscaKind?: TestKeyKind;
  readonly dsKind?: TestKeyKind;
  /** The country of both certificates (default UT, ICAO's specimen Utopia). */
  readonly country?: string;
  /** The DS certificate's validity (default: a year ago to ten years ahead of now). */
  readonly dsNotBefore?: Date;
  readonly dsNotAfter?: Date;
  /** The DS key written with explicit curve parameters (brainpoolP256r1 only; 'unknown': altered ones). */
  readonly explicitDsCurve?: boolean | 'unknown';
  /** The CSCA's common name (two CSCAs with the same name but other keys test key-identifier matching). */
  readonly cscaName?: string;
}

export interface TestPki {
  readonly csca: Buffer;
  readonly cscaKeys: TestKeys;
  readonly ds: Buffer;
  readonly dsKeys: TestKeys;
  readonly dsName: Name;
  readonly dsSerial: ArrayBuffer;
}

/** A CSCA and a DS certificate it signs. */
export function testPki(options: PkiOptions = {}): TestPki {
  const now = Date.now();
  const country = options.country ?? 'UT';
  const cscaKeys = testKeys(options.cscaKind ?? 'P-256');
  const dsKeys = testKeys(options.dsKind ?? options.cscaKind ?? 'P-256');
  const cscaName = testName(country, options.cscaName ?? 'CSCA Test');
  const csca = testCertificate({
    subject: cscaName,
    issuer: cscaName,
    subjectKeys: cscaKeys,
    issuerKeys: cscaKeys,
    serial: 1,
    notBefore: new Date(now - 2 * 365 * DAY),
    notAfter: new Date(now + 15 * 365 * DAY),
    ca: true,
  });
  const dsName = testName(country, 'Document Signer Test');
  const ds = testCertificate({
    subject: dsName,
    issuer: cscaName,
    subjectKeys: dsKeys,
    issuerKeys: cscaKeys,
    serial: 2,
    notBefore: options.dsNotBefore ?? new Date(now - 365 * DAY),
    notAfter: options.dsNotAfter ?? new Date(now + 10 * 365 * DAY),
    authorityKeyId: keyIdOf(cscaKeys),
    explicitCurve: options.explicitDsCurve ?? false,
  });
  const parsed = AsnConvert.parse(ds, Certificate);
  return { csca, cscaKeys, ds, dsKeys, dsName, dsSerial: parsed.tbsCertificate.serialNumber };
}

/** A BER-TLV element with a one- or two-byte tag and a definite length. */
export function tlv(tag: number, ...values: Uint8Array[]): Buffer {
  const value = Buffer.concat(values);
  const tagBytes = tag > 0xff ? [tag >> 8, tag & 0xff] : [tag];
  const length =
    value.length < 0x80
      ? [value.length]
      : value.length < 0x100
        ? [0x81, value.length]
        : value.length < 0x10000
          ? [0x82, value.length >> 8, value.length & 0xff]
          : [0x83, value.length >> 16, (value.length >> 8) & 0xff, value.length & 0xff];
  return Buffer.concat([Buffer.from([...tagBytes, ...length]), value]);
}

/** EF.DG1 holding the MRZ lines. */
export function testDataGroup1(mrz: readonly string[]): Buffer {
  return tlv(0x61, tlv(0x5f1f, Buffer.from(mrz.join(''), 'latin1')));
}

/** EF.DG2 holding one ISO/IEC 19794-5 facial record around the image (0 JPEG, 1 JPEG 2000). */
export function testDataGroup2(image: Uint8Array, width: number, height: number, dataType = 0): Buffer {
  const info = Buffer.alloc(20);
  info.writeUInt32BE(20 + 12 + image.length, 0);
  const imageInfo = Buffer.alloc(12);
  imageInfo[0] = 1;
  imageInfo[1] = dataType;
  imageInfo.writeUInt16BE(width, 2);
  imageInfo.writeUInt16BE(height, 4);
  imageInfo[6] = 1;
  const header = Buffer.alloc(14);
  Buffer.from('FAC\x00010\x00', 'latin1').copy(header, 0);
  header.writeUInt32BE(14 + 20 + 12 + image.length, 8);
  header.writeUInt16BE(1, 12);
  const record = Buffer.concat([header, info, imageInfo, image]);
  return tlv(
    0x75,
    tlv(
      0x7f61,
      tlv(0x02, Buffer.from([1])),
      tlv(0x7f60, tlv(0xa1, tlv(0x80, Buffer.from([1, 1]))), tlv(0x5f2e, record)),
    ),
  );
}

export interface SodOptions {
  /** The DS certificate inside EF.SOD (default true). */
  readonly includeDs?: boolean;
  /** Name the signer by subject key identifier instead of issuer and serial. */
  readonly signerByKeyId?: boolean;
  /** Flip a bit of the signature. */
  readonly corruptSignature?: boolean;
}

/** EF.SOD over the data groups: SHA-256 hashes, signed attributes, signed by the PKI's DS. */
export function testSecurityObject(
  pki: TestPki,
  dataGroups: ReadonlyMap<number, Uint8Array>,
  options: SodOptions = {},
): Buffer {
  const lds = new LdsSecurityObject();
  lds.hashAlgorithm = new AlgorithmIdentifier({ algorithm: SHA256, parameters: null });
  lds.dataGroupHashValues = [...dataGroups.entries()].map(([number, bytes]) => {
    const hash = new DataGroupHash();
    hash.dataGroupNumber = number;
    hash.dataGroupHashValue = new OctetString(createHash('sha256').update(bytes).digest());
    return hash;
  });
  const content = Buffer.from(AsnConvert.serialize(lds));
  const oid = Buffer.from('06066781080101 01'.replace(/\s/g, ''), 'hex');
  const signedAttrs = [
    new Attribute({ attrType: id_contentType, attrValues: [new Uint8Array(oid).buffer] }),
    new Attribute({
      attrType: id_messageDigest,
      attrValues: [AsnConvert.serialize(new OctetString(createHash('sha256').update(content).digest()))],
    }),
  ];
  const sid =
    options.signerByKeyId === true
      ? new SignerIdentifier({ subjectKeyIdentifier: new SubjectKeyIdentifier(keyIdOf(pki.dsKeys)) })
      : new SignerIdentifier({
          issuerAndSerialNumber: new IssuerAndSerialNumber({
            issuer: AsnConvert.parse(pki.ds, Certificate).tbsCertificate.issuer,
            serialNumber: pki.dsSerial,
          }),
        });
  const signer = new SignerInfo({
    version: options.signerByKeyId === true ? 3 : 1,
    sid,
    digestAlgorithm: new AlgorithmIdentifier({ algorithm: SHA256, parameters: null }),
    signedAttrs,
    signatureAlgorithm: signatureAlgorithm(pki.dsKeys.kind),
    signature: new OctetString(new Uint8Array(1)),
  });
  // What is signed is the attributes' DER as a SET OF (RFC 5652 §5.4).
  const signature = signWith(pki.dsKeys, new Uint8Array(AsnConvert.serialize(new AttributeSet(signedAttrs))));
  if (options.corruptSignature === true)
    signature[signature.length - 3] = (signature[signature.length - 3] ?? 0) ^ 0x01;
  signer.signature = new OctetString(signature);
  const signedData = new SignedData({
    version: 3,
    encapContentInfo: new EncapsulatedContentInfo({
      eContentType: LDS_SECURITY_OBJECT,
      eContent: new EncapsulatedContent({ single: new OctetString(content) }),
    }),
  });
  signedData.digestAlgorithms.push(new AlgorithmIdentifier({ algorithm: SHA256, parameters: null }));
  signedData.signerInfos.push(signer);
  if (options.includeDs !== false) {
    signedData.certificates = new CertificateSet([
      new CertificateChoices({ certificate: AsnConvert.parse(pki.ds, Certificate) }),
    ]);
  }
  const info = new ContentInfo({ contentType: id_signedData, content: AsnConvert.serialize(signedData) });
  return tlv(0x77, Buffer.from(AsnConvert.serialize(info)));
}

/** An ICAO master list of the CSCAs, signed by a master-list signer certified by the first CSCA. */
export function testMasterList(cscas: readonly TestPki[]): Buffer {
  const [first] = cscas;
  if (first === undefined) throw new Error('a master list needs a CSCA');
  const signerKeys = testKeys('P-256');
  const now = Date.now();
  const signerName = testName('UT', 'Master List Signer');
  const signerCert = testCertificate({
    subject: signerName,
    issuer: AsnConvert.parse(first.csca, Certificate).tbsCertificate.subject,
    subjectKeys: signerKeys,
    issuerKeys: first.cscaKeys,
    serial: 9,
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + 365 * DAY),
    authorityKeyId: keyIdOf(first.cscaKeys),
  });
  const list = new CscaMasterList();
  list.certList = cscas.map((p) => AsnConvert.parse(p.csca, Certificate));
  const content = Buffer.from(AsnConvert.serialize(list));
  const pki: TestPki = {
    ...first,
    ds: signerCert,
    dsKeys: signerKeys,
    dsName: signerName,
    dsSerial: AsnConvert.parse(signerCert, Certificate).tbsCertificate.serialNumber,
  };
  return masterListFrom(content, pki);
}

/** The master list's SignedData: EF.SOD's shape, with the master-list content type and content. */
function masterListFrom(content: Buffer, pki: TestPki): Buffer {
  const oid = Buffer.from('0606678108010102', 'hex');
  const signedAttrs = [
    new Attribute({ attrType: id_contentType, attrValues: [new Uint8Array(oid).buffer] }),
    new Attribute({
      attrType: id_messageDigest,
      attrValues: [AsnConvert.serialize(new OctetString(createHash('sha256').update(content).digest()))],
    }),
  ];
  const signer = new SignerInfo({
    version: 1,
    sid: new SignerIdentifier({
      issuerAndSerialNumber: new IssuerAndSerialNumber({
        issuer: AsnConvert.parse(pki.ds, Certificate).tbsCertificate.issuer,
        serialNumber: pki.dsSerial,
      }),
    }),
    digestAlgorithm: new AlgorithmIdentifier({ algorithm: SHA256, parameters: null }),
    signedAttrs,
    signatureAlgorithm: signatureAlgorithm(pki.dsKeys.kind),
    signature: new OctetString(new Uint8Array(1)),
  });
  signer.signature = new OctetString(
    signWith(pki.dsKeys, new Uint8Array(AsnConvert.serialize(new AttributeSet(signedAttrs)))),
  );
  const signedData = new SignedData({
    version: 3,
    encapContentInfo: new EncapsulatedContentInfo({
      eContentType: CSCA_MASTER_LIST,
      eContent: new EncapsulatedContent({ single: new OctetString(content) }),
    }),
  });
  signedData.digestAlgorithms.push(new AlgorithmIdentifier({ algorithm: SHA256, parameters: null }));
  signedData.signerInfos.push(signer);
  signedData.certificates = new CertificateSet([
    new CertificateChoices({ certificate: AsnConvert.parse(pki.ds, Certificate) }),
  ]);
  return Buffer.from(
    AsnConvert.serialize(new ContentInfo({ contentType: id_signedData, content: AsnConvert.serialize(signedData) })),
  );
}

import { AsnProp, AsnPropTypes, OctetString } from '@peculiar/asn1-schema';
import { AlgorithmIdentifier } from '@peculiar/asn1-x509';

/** `DataGroupHash ::= SEQUENCE { dataGroupNumber INTEGER, dataGroupHashValue OCTET STRING }` (ICAO 9303-10 §4.6.2). */
export class DataGroupHash {
  dataGroupNumber = 0;
  dataGroupHashValue = new OctetString();
}

/** `LDSVersionInfo ::= SEQUENCE { ldsVersion PrintableString, unicodeVersion PrintableString }` (LDS 1.8). */
export class LdsVersionInfo {
  ldsVersion = '';
  unicodeVersion = '';
}

/**
 * `LDSSecurityObject ::= SEQUENCE { version INTEGER, hashAlgorithm AlgorithmIdentifier,
 * dataGroupHashValues SEQUENCE SIZE (2..16) OF DataGroupHash, ldsVersionInfo LDSVersionInfo OPTIONAL }`,
 * the content EF.SOD signs. The schema is attached below with asn1-schema's decorators called as functions
 * (the project compiles without `experimentalDecorators`).
 */
export class LdsSecurityObject {
  version = 0;
  hashAlgorithm = new AlgorithmIdentifier();
  dataGroupHashValues: DataGroupHash[] = [];
  ldsVersionInfo?: LdsVersionInfo;
}

AsnProp({ type: AsnPropTypes.Integer })(DataGroupHash.prototype, 'dataGroupNumber');
AsnProp({ type: OctetString })(DataGroupHash.prototype, 'dataGroupHashValue');
AsnProp({ type: AsnPropTypes.PrintableString })(LdsVersionInfo.prototype, 'ldsVersion');
AsnProp({ type: AsnPropTypes.PrintableString })(LdsVersionInfo.prototype, 'unicodeVersion');
AsnProp({ type: AsnPropTypes.Integer })(LdsSecurityObject.prototype, 'version');
AsnProp({ type: AlgorithmIdentifier })(LdsSecurityObject.prototype, 'hashAlgorithm');
AsnProp({ type: DataGroupHash, repeated: 'sequence' })(LdsSecurityObject.prototype, 'dataGroupHashValues');
AsnProp({ type: LdsVersionInfo, optional: true })(LdsSecurityObject.prototype, 'ldsVersionInfo');

import { childTlv, readTlv, readTlvList } from './ber-tlv.js';
import { ChipDataError } from './chip-data-error.js';

/** EF.DG2 (ICAO 9303-10 §4.7.2): template 75 > biometric information group 7F61 > templates 7F60 > data block. */
const DG2_TAG = 0x75;
const GROUP_TAG = 0x7f61;
const TEMPLATE_TAG = 0x7f60;
/** The biometric data block: 5F2E, or 7F2E when it is enciphered (which this reader cannot open). */
const DATA_BLOCK_TAG = 0x5f2e;

/** ISO/IEC 19794-5:2005 sizes: record header, facial information, one feature point, image information. */
const RECORD_HEADER_BYTES = 14;
const FACIAL_INFO_BYTES = 20;
const FEATURE_POINT_BYTES = 8;
const IMAGE_INFO_BYTES = 12;

export type PortraitFormat = 'jpeg' | 'jpeg2000';

export interface ChipPortrait {
  readonly format: PortraitFormat;
  /** The image as stored: a JPEG file, or a JPEG 2000 file (JP2) or codestream (J2K). */
  readonly image: Uint8Array;
  readonly width: number;
  readonly height: number;
}

/**
 * The first face image of EF.DG2: the ISO/IEC 19794-5 facial record in the first biometric data block, its
 * facial information and feature points skipped, the image data type (0 JPEG, 1 JPEG 2000) taken from the
 * image information and confirmed by the image's own signature.
 *
 * @example
 * const portrait = readDataGroup2Portrait(dg2); // { format: 'jpeg', image: <ff d8 ff ...>, width: 480, height: 600 }
 * @throws {ChipDataError} `DATA_GROUP` for a broken TLV structure, `PORTRAIT` for a record that is not ISO 19794-5
 * or an image whose bytes are not the type declared
 */
export function readDataGroup2Portrait(dg2: Uint8Array): ChipPortrait {
  const template = readTlv(dg2);
  if (template.tag !== DG2_TAG) throw new ChipDataError('DATA_GROUP', 'DG2 does not start with its template tag 75');
  const group = childTlv(template, GROUP_TAG, 'the DG2 biometric information group');
  const first = readTlvList(group.value).find((e) => e.tag === TEMPLATE_TAG);
  if (first === undefined) throw new ChipDataError('DATA_GROUP', 'DG2 holds no biometric information template');
  const block = readTlvList(first.value).find((e) => e.tag === DATA_BLOCK_TAG);
  if (block === undefined) {
    throw new ChipDataError(
      'PORTRAIT',
      'DG2 holds no plain biometric data block (5F2E); an enciphered one is not read',
    );
  }
  return facialRecordImage(Buffer.from(block.value.buffer, block.value.byteOffset, block.value.byteLength));
}

function facialRecordImage(record: Buffer): ChipPortrait {
  if (record.length < RECORD_HEADER_BYTES + FACIAL_INFO_BYTES + IMAGE_INFO_BYTES) {
    throw new ChipDataError('PORTRAIT', 'the DG2 facial record is shorter than its headers');
  }
  if (record.toString('latin1', 0, 4) !== 'FAC\0') {
    throw new ChipDataError('PORTRAIT', "the DG2 biometric data block is no ISO/IEC 19794-5 facial record ('FAC')");
  }
  const infoStart = RECORD_HEADER_BYTES;
  const blockLength = record.readUInt32BE(infoStart);
  const featurePoints = record.readUInt16BE(infoStart + 4);
  const imageInfo = infoStart + FACIAL_INFO_BYTES + featurePoints * FEATURE_POINT_BYTES;
  const imageStart = imageInfo + IMAGE_INFO_BYTES;
  const imageEnd = Math.min(record.length, infoStart + blockLength);
  if (imageStart >= imageEnd) throw new ChipDataError('PORTRAIT', 'the DG2 facial record holds no image data');
  const dataType = record[imageInfo + 1];
  const image = record.subarray(imageStart, imageEnd);
  const format = signatureFormat(image);
  if (format === null || (dataType === 0 && format !== 'jpeg') || (dataType === 1 && format !== 'jpeg2000')) {
    throw new ChipDataError('PORTRAIT', 'the DG2 image is neither the JPEG nor the JPEG 2000 its record declares');
  }
  return { format, image, width: record.readUInt16BE(imageInfo + 2), height: record.readUInt16BE(imageInfo + 4) };
}

/** JPEG's SOI marker, the JP2 signature box, or a J2K codestream's SOC + SIZ markers. */
function signatureFormat(image: Buffer): PortraitFormat | null {
  if (image[0] === 0xff && image[1] === 0xd8 && image[2] === 0xff) return 'jpeg';
  if (image.subarray(0, 12).equals(Buffer.from('0000000c6a5020200d0a870a', 'hex'))) return 'jpeg2000';
  if (image.subarray(0, 4).equals(Buffer.from('ff4fff51', 'hex'))) return 'jpeg2000';
  return null;
}

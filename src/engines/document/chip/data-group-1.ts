import { childTlv, readTlv } from './ber-tlv.js';
import { ChipDataError } from './chip-data-error.js';

/** EF.DG1's template tag and the MRZ data object inside it (ICAO 9303-10 §4.7.1). */
const DG1_TAG = 0x61;
const MRZ_TAG = 0x5f1f;

/** MRZ lengths without line breaks and how they split: TD1 3 × 30, TD2 (and MRV-B) 2 × 36, TD3 (and MRV-A) 2 × 44. */
const LINE_LENGTH: Readonly<Record<number, number>> = { 90: 30, 72: 36, 88: 44 };

/**
 * The MRZ stored in EF.DG1, split into its printed lines, ready for `parseMrz`.
 *
 * @example
 * readDataGroup1Mrz(dg1); // ['P<UTOERIKSSON<<ANNA<MARIA<<<...', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10']
 * @throws {ChipDataError} `DATA_GROUP` when the file is no DG1 template, has no MRZ object, or its length fits
 * no layout
 */
export function readDataGroup1Mrz(dg1: Uint8Array): string[] {
  const template = readTlv(dg1);
  if (template.tag !== DG1_TAG) throw new ChipDataError('DATA_GROUP', 'DG1 does not start with its template tag 61');
  const text = Buffer.from(childTlv(template, MRZ_TAG, 'the DG1 MRZ').value).toString('latin1');
  const lineLength = LINE_LENGTH[text.length];
  if (lineLength === undefined || !/^[A-Z0-9<]+$/.test(text)) {
    throw new ChipDataError('DATA_GROUP', `the DG1 MRZ is ${text.length} characters, not a TD1, TD2 or TD3 MRZ`);
  }
  const lines: string[] = [];
  for (let at = 0; at < text.length; at += lineLength) lines.push(text.slice(at, at + lineLength));
  return lines;
}

import type { MrzFields, MrzParseResult } from '../../engines/document/mrz/mrz-types.js';
import type { DocumentFields } from './schemas.js';

/** The sources of `fields.overall`. */
export interface FieldSources {
  /** The MRZ the fields came from (its validity decides), null when none was read. */
  readonly mrz: MrzParseResult | null;
  readonly mrzFields: DocumentFields;
  /** The visual zone as read (`fields.optical`). */
  readonly optical: DocumentFields;
  /** DG1's fields, null without chip data. */
  readonly rfid: DocumentFields | null;
  /** Passive authentication proved the chip's data. */
  readonly chipAuthentic: boolean;
}

/** The MRZ field behind each document field. */
const MRZ_FIELD: Readonly<Record<keyof DocumentFields, keyof MrzFields>> = {
  documentCode: 'documentCode',
  issuingState: 'issuingState',
  surname: 'surname',
  givenName: 'givenNames',
  documentNumber: 'documentNumber',
  nationality: 'nationality',
  dateOfBirth: 'dateOfBirth',
  gender: 'sex',
  dateOfExpiry: 'dateOfExpiry',
  personalNumber: 'personalNumber',
  optionalData1: 'optionalData1',
  optionalData2: 'optionalData2',
};

/**
 * Whether the field's own check digit (document number, dates, personal number) holds in a damaged MRZ: the
 * composite digit, failing with any other field, says nothing against this one.
 */
export function ownCheckHolds(mrz: MrzParseResult, field: keyof MrzFields): boolean {
  const own = mrz.checkDigits.find((check) => check.name === field);
  const value = mrz.fields[field];
  // A date of valid digits that is no date (a 13th month) is still no date to take.
  return own !== undefined && own.valid && value !== null && !('date' in value && value.date === null);
}

/** The document fields in the spec's order. */
const FIELD_ORDER: readonly (keyof DocumentFields)[] = [
  'documentCode',
  'issuingState',
  'surname',
  'givenName',
  'documentNumber',
  'nationality',
  'dateOfBirth',
  'gender',
  'dateOfExpiry',
  'personalNumber',
  'optionalData1',
  'optionalData2',
];

/**
 * The overall fields, field by field: the chip's where passive authentication proved it; else the MRZ's where the
 * MRZ parsed valid, or where the field's own check digit holds (number, dates) in a damaged MRZ; else the
 * visual zone's where it was read; else whatever the MRZ or an unproven chip gives. So with the MRZ cut off or
 * damaged the printed name and dates stand; conflicts between the sources are listed in the security reasons
 * (visual-zone-security.ts, chip-security.ts), never resolved silently in the MRZ's favour without saying.
 *
 * @example
 * const fields = { mrz: null, mrzFields: {}, optical: { surname: 'ERIKSSON' }, rfid: null, chipAuthentic: false };
 * overallDocumentFields(fields).surname; // 'ERIKSSON'
 */
export function overallDocumentFields(sources: FieldSources): DocumentFields {
  const { mrz, mrzFields, optical, rfid, chipAuthentic } = sources;
  const merged: DocumentFields = {};
  const take = <K extends keyof DocumentFields>(key: K): void => {
    const fromMrz = mrzFields[key];
    const fromViz = optical[key];
    const mrzSure = mrz !== null && (mrz.valid || ownCheckHolds(mrz, MRZ_FIELD[key]));
    const value = (mrzSure ? fromMrz : undefined) ?? fromViz ?? fromMrz;
    if (value !== undefined) merged[key] = value;
  };
  for (const key of FIELD_ORDER) take(key);
  if (rfid === null) return merged;
  return chipAuthentic ? { ...merged, ...rfid } : { ...rfid, ...merged };
}

/**
 * What the MRZ parser and its repair return. Positions are 0-based: `line` indexes the MRZ lines top to
 * bottom, `column` the characters of a line; a segment's `end` is exclusive.
 */

/** The ICAO 9303 layouts the parser reads, and the French national identity card (pre-2021, 2×36). */
export type MrzFormat = 'TD1' | 'TD2' | 'TD3' | 'MRV-A' | 'MRV-B' | 'FRENCH_ID';

export interface MrzPosition {
  readonly line: number;
  readonly column: number;
}

export interface MrzSegment {
  readonly line: number;
  readonly start: number;
  readonly end: number;
}

export type MrzFieldName =
  | 'documentCode'
  | 'issuingState'
  | 'surname'
  | 'givenNames'
  | 'documentNumber'
  | 'nationality'
  | 'dateOfBirth'
  | 'sex'
  | 'dateOfExpiry'
  | 'personalNumber'
  | 'optionalData1'
  | 'optionalData2';

/** The check digits a layout carries; `composite` covers several fields at once. */
export type MrzCheckName = 'documentNumber' | 'dateOfBirth' | 'dateOfExpiry' | 'personalNumber' | 'composite';

/** A date as printed (`YYMMDD`), with the century chosen by the rule of its kind (mrz-date.ts). */
export interface MrzDate {
  /** The six characters as read. */
  readonly raw: string;
  readonly year: number;
  /** null where the issuer printed fillers (`<<`) for an unknown month or day. */
  readonly month: number | null;
  readonly day: number | null;
  /** `YYYY-MM-DD`, or null when the month or day is unknown. */
  readonly iso: string | null;
}

export interface MrzField {
  /** Fillers turned to spaces (names) or trimmed (codes, numbers, optional data). */
  readonly value: string;
  /** The characters of the field as read (after repair, for repairMrz), fillers included. */
  readonly raw: string;
  readonly segments: readonly MrzSegment[];
  /** The check digits whose computation includes this field. */
  readonly checks: readonly MrzCheckName[];
  /** Its shape is right (characters, date, code) and every check digit covering it is valid. */
  readonly valid: boolean;
  /** 0 to 1: how sure the value is what is printed (field-confidence.ts says how it is computed). */
  readonly confidence: number;
}

export interface MrzDateField extends MrzField {
  /** null when the six characters are not a date (letters, a 13th month, a 31st of April). */
  readonly date: MrzDate | null;
}

/**
 * The fields of a document-fields object. Fields a layout does not have are null: the French card has no
 * nationality and no expiry date; only TD3 has a personal number; optional data 2 is TD1's second line.
 */
export interface MrzFields {
  readonly documentCode: MrzField;
  readonly issuingState: MrzField;
  /** The primary identifier (before `<<`). */
  readonly surname: MrzField;
  /** The secondary identifier (after `<<`), its components separated by single spaces. */
  readonly givenNames: MrzField;
  /** With TD1's and TD2's long-number overflow joined on. */
  readonly documentNumber: MrzField;
  readonly nationality: MrzField | null;
  readonly dateOfBirth: MrzDateField;
  /** `M`, `F`, `<` (unspecified) or `X`. */
  readonly sex: MrzField;
  readonly dateOfExpiry: MrzDateField | null;
  readonly personalNumber: MrzField | null;
  readonly optionalData1: MrzField | null;
  readonly optionalData2: MrzField | null;
}

export interface MrzCheckDigit {
  readonly name: MrzCheckName;
  /** Where the check digit is printed. */
  readonly position: MrzPosition;
  /** The character read there. */
  readonly printed: string;
  /** The digit the covered characters give. */
  readonly expected: number;
  readonly valid: boolean;
}

export type MrzIssueCode =
  | 'CHECK_DIGIT_MISMATCH'
  | 'INVALID_CHARACTERS'
  | 'INVALID_DOCUMENT_CODE'
  | 'INVALID_STATE_CODE'
  | 'UNKNOWN_STATE_CODE'
  | 'SPECIMEN_STATE_CODE'
  | 'INVALID_DATE'
  | 'PARTIAL_DATE'
  | 'INVALID_SEX';

/**
 * Something wrong with the MRZ. `error`s make the parse invalid (a wrong printed check digit is a security
 * finding); `warning`s do not (a state code outside the ICAO list, a specimen's `UTO`).
 */
export interface MrzIssue {
  readonly code: MrzIssueCode;
  readonly severity: 'error' | 'warning';
  readonly field: MrzFieldName | 'composite';
  readonly message: string;
}

export interface MrzParseResult {
  readonly format: MrzFormat;
  /** The lines parsed (after repair, for repairMrz). */
  readonly lines: readonly string[];
  readonly fields: MrzFields;
  readonly checkDigits: readonly MrzCheckDigit[];
  /** Every check digit valid and no error issue. */
  readonly valid: boolean;
  readonly issues: readonly MrzIssue[];
  /** The lowest field confidence: every field, names included, is what is printed. */
  readonly confidence: number;
  /** The lowest confidence among the fields some check digit covers (the names of ICAO layouts are not). */
  readonly verifiedConfidence: number;
}

export type MrzRepairKind = 'normalize' | 'filler' | 'length' | 'type' | 'swap';

/**
 * One change repairMrz made. `column` is on the line as it stood when the change was made (a length
 * repair moves later columns); an insertion has `from: ''`, a deletion `to: ''`.
 */
export interface MrzChange {
  readonly kind: MrzRepairKind;
  readonly line: number;
  readonly column: number;
  readonly from: string;
  readonly to: string;
  readonly reason: string;
  /**
   * Another candidate fitted the check digits and the filler-run preference as well, and this one was
   * chosen for being nearer the end of the line (length repairs only).
   */
  readonly ambiguous: boolean;
}

export interface MrzRepairResult extends MrzParseResult {
  /** The lines as given. */
  readonly input: readonly string[];
  /** Every change, in the order made; empty when the read needed none. */
  readonly changes: readonly MrzChange[];
}

/** What an OCR saw at one character: the probability of the character read and of others it held possible. */
export interface MrzCharacterEvidence {
  readonly probability: number;
  readonly alternatives: readonly { readonly character: string; readonly probability: number }[];
}

/**
 * Per line (as given), per character, what the OCR saw; null for a line read by an OCR whose
 * probabilities say nothing about OCR-B's look-alikes (any repair may change it).
 */
export type MrzReadEvidence = readonly (readonly (MrzCharacterEvidence | null)[] | null)[];

/** Options of parseMrz and repairMrz. */
export interface MrzOptions {
  /** The day the century rules of the dates count from; today by default. */
  readonly referenceDate?: Date;
  /**
   * repairMrz only: the OCR's per-character evidence (read-evidence.ts). With it, a repair changes a
   * character only where the OCR was unsure of it; without it, every repair may act (text of unknown
   * origin).
   */
  readonly evidence?: MrzReadEvidence;
}

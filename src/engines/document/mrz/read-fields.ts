/**
 * Reads the fields of MRZ lines of a known format and exact length: values, dates, check digits, issues
 * and confidences. parseMrz calls it on the lines as given, repairMrz on the repaired lines with the
 * repairs it made.
 */

import { evaluateCheckDigits, segmentText } from './evaluate-checks.js';
import { BLIND_CONFUSION, FAILED_CONFIDENCE, fieldConfidence, type RepairMark } from './field-confidence.js';
import { parseMrzDate, type MrzDateKind } from './mrz-date.js';
import { positionKinds, resolveMrzLayout, type LayoutField } from './mrz-layouts.js';
import { nameValue, splitMrzName } from './mrz-names.js';
import type {
  MrzCheckDigit,
  MrzCheckName,
  MrzDateField,
  MrzField,
  MrzFieldName,
  MrzFields,
  MrzFormat,
  MrzIssue,
  MrzParseResult,
  MrzSegment,
} from './mrz-types.js';
import { classifyStateCode } from './state-codes.js';

const overlaps = (a: MrzSegment, b: MrzSegment) => a.line === b.line && a.start < b.end && b.start < a.end;

/** A field before its value is interpreted: where it is and whether its shape is right. */
interface RawField {
  readonly name: MrzFieldName;
  readonly segments: readonly MrzSegment[];
  readonly raw: string;
  readonly value: string;
  readonly shapeValid: boolean;
  readonly date?: MrzDateField['date'];
}

const trimFillers = (raw: string) => raw.replace(/^<+|<+$/g, '');

/**
 * The fields, values and issues of MRZ lines whose format and lengths are known to be right.
 *
 * @example
 * readMrzFields('TD3', lines, new Date(), []).fields.documentNumber.value; // 'L898902C3'
 */
export function readMrzFields(
  format: MrzFormat,
  lines: readonly string[],
  referenceDate: Date,
  repairs: readonly RepairMark[],
): MrzParseResult {
  const layout = resolveMrzLayout(format, lines);
  const kinds = positionKinds(layout);
  const checkDigits = evaluateCheckDigits(layout, lines);
  const issues: MrzIssue[] = [];
  const issue = (code: MrzIssue['code'], severity: MrzIssue['severity'], name: MrzIssue['field'], message: string) =>
    issues.push({ code, severity, field: name, message });

  const rawFields: RawField[] = layout.fields.flatMap((f) => readField(f, lines));
  for (const f of rawFields) {
    if (f.shapeValid) continue;
    if (f.name === 'dateOfBirth' || f.name === 'dateOfExpiry')
      issue('INVALID_DATE', 'error', f.name, `${f.name} is not a YYMMDD date`);
    else if (f.name === 'sex') issue('INVALID_SEX', 'error', f.name, 'sex is M, F, X or <');
    else if (f.name === 'documentCode')
      issue('INVALID_DOCUMENT_CODE', 'error', f.name, 'the document code starts with a letter');
    else if (f.name !== 'issuingState' && f.name !== 'nationality')
      issue('INVALID_CHARACTERS', 'error', f.name, `${f.name} holds characters its type does not allow`);
  }
  for (const f of rawFields) {
    if (f.name !== 'issuingState' && f.name !== 'nationality') continue;
    const status = classifyStateCode(f.raw);
    if (status === 'invalid') issue('INVALID_STATE_CODE', 'error', f.name, `${f.name} is not a three-letter code`);
    if (status === 'unknown')
      issue('UNKNOWN_STATE_CODE', 'warning', f.name, `${f.name} ${f.raw} is not an ISO 3166-1 or ICAO code`);
    if (status === 'specimen') issue('SPECIMEN_STATE_CODE', 'warning', f.name, `${f.name} ${f.raw} is a specimen code`);
  }
  for (const f of rawFields)
    if (f.date && (f.date.month === null || f.date.day === null))
      issue('PARTIAL_DATE', 'warning', f.name, `${f.name} has an unknown month or day`);
  for (const c of checkDigits)
    if (!c.valid)
      issue(
        'CHECK_DIGIT_MISMATCH',
        'error',
        c.name,
        `the ${c.name} check digit is ${c.printed}, the characters give ${c.expected}`,
      );

  const checksOf = (segments: readonly MrzSegment[]): MrzCheckName[] =>
    layout.checks.filter((c) => c.covers.some((cover) => segments.some((s) => overlaps(cover, s)))).map((c) => c.name);
  // On TD1 and TD2 the first filler after a long number's tail places the boundary between the number and
  // optional data 1, and the number's check digit confirms it. When that check fails the boundary is
  // unverified. A K in the tail may be the misread filler that ended it, which no check digit can see, and
  // a repair in the tail or its check digit chose where it ends: either leaves both fields below high.
  const longNumber =
    format === 'TD1' || format === 'TD2' ? layout.fields.find((f) => f.name === 'documentNumber') : undefined;
  const tailSegments = longNumber && longNumber.segments.length > 1 ? longNumber.segments.slice(1) : [];
  const numberCheck = layout.checks.find((c) => c.name === 'documentNumber');
  const tailRepaired = repairs.some(
    (r) =>
      tailSegments.some((s) => r.line === s.line && r.column >= s.start && r.column <= s.end) ||
      (tailSegments.length > 0 && r.line === numberCheck?.digit.line && r.column === numberCheck.digit.column),
  );
  const numberFailed = checkDigits.some((c) => c.name === 'documentNumber' && !c.valid);
  const boundaryUnsure = (name: MrzFieldName) => numberFailed && name === 'optionalData1' && tailSegments.length > 0;
  const boundaryBlind = (name: MrzFieldName) =>
    (name === 'optionalData1' || name === 'documentNumber') &&
    (segmentText(lines, tailSegments).includes('K') || tailRepaired);
  const finish = (f: RawField): MrzField | MrzDateField => {
    const checks = checksOf(f.segments);
    const own = checks.filter((name) => name !== 'composite');
    const relevantNames = own.length > 0 ? own : checks;
    const relevant: MrzCheckDigit[] = checkDigits.filter((c) => relevantNames.includes(c.name));
    const covers = layout.checks
      .filter((c) => relevantNames.includes(c.name))
      .flatMap((c) => [...c.covers, ...(c.alternativeCovers ?? [])]);
    const computed = fieldConfidence(
      {
        segments: f.segments,
        checks: relevant,
        covers,
        compositeFails:
          own.length > 0 &&
          checks.includes('composite') &&
          !checkDigits.every((c) => c.name !== 'composite' || c.valid),
        shapeValid: f.shapeValid,
      },
      lines,
      kinds,
      repairs,
    );
    const confidence = boundaryUnsure(f.name)
      ? Math.min(computed, FAILED_CONFIDENCE)
      : boundaryBlind(f.name)
        ? Math.round(computed * BLIND_CONFUSION * 1000) / 1000
        : computed;
    const valid =
      f.shapeValid &&
      !boundaryUnsure(f.name) &&
      checkDigits.filter((c) => checks.includes(c.name)).every((c) => c.valid);
    const common = { value: f.value, raw: f.raw, segments: f.segments, checks, valid, confidence };
    return f.date === undefined ? common : { ...common, date: f.date };
  };

  const byName = new Map(rawFields.map((f) => [f.name, f]));
  const present = (name: MrzFieldName) => {
    const f = byName.get(name);
    return f ? finish(f) : null;
  };
  const required = (name: MrzFieldName): MrzField => present(name) ?? emptyField();
  const dateField = (name: 'dateOfBirth' | 'dateOfExpiry'): MrzDateField | null => {
    const f = present(name);
    return f === null ? null : { ...f, date: isDateField(f) ? f.date : null };
  };
  const fields: MrzFields = {
    documentCode: required('documentCode'),
    issuingState: required('issuingState'),
    surname: required('surname'),
    givenNames: required('givenNames'),
    documentNumber: required('documentNumber'),
    nationality: present('nationality'),
    dateOfBirth: dateField('dateOfBirth') ?? { ...emptyField(), date: null },
    sex: required('sex'),
    dateOfExpiry: dateField('dateOfExpiry'),
    personalNumber: present('personalNumber'),
    optionalData1: present('optionalData1'),
    optionalData2: present('optionalData2'),
  };

  const all = Object.values(fields).filter((f): f is MrzField => f !== null);
  const verified = all.filter((f) => f.checks.length > 0);
  const lowest = (fs: MrzField[]) => fs.reduce((min, f) => Math.min(min, f.confidence), 1);
  return {
    format,
    lines: [...lines],
    fields,
    checkDigits,
    valid: !issues.some((i) => i.severity === 'error'),
    issues,
    confidence: lowest(all),
    verifiedConfidence: lowest(verified),
  };

  function readField(f: LayoutField, text: readonly string[]): RawField[] {
    const raw = segmentText(text, f.segments);
    if (f.name === 'names') {
      const [segment] = f.segments;
      if (!segment) return [];
      const split = splitMrzName(raw);
      const shapeValid = /^[A-Z<]*$/.test(raw);
      const at = (start: number, end: number): MrzSegment => ({
        line: segment.line,
        start: segment.start + start,
        end: segment.start + end,
      });
      return [
        {
          name: 'surname',
          segments: [at(0, split.surnameEnd)],
          raw: raw.slice(0, split.surnameEnd),
          value: split.surname,
          shapeValid,
        },
        {
          name: 'givenNames',
          segments: [at(split.givenNamesStart, raw.length)],
          raw: raw.slice(split.givenNamesStart),
          value: split.givenNames,
          shapeValid,
        },
      ];
    }
    const name = f.name;
    const base = { name, segments: f.segments, raw };
    switch (name) {
      case 'surname':
      case 'givenNames':
        return [{ ...base, value: nameValue(raw), shapeValid: /^[A-Z<]*$/.test(raw) }];
      case 'dateOfBirth':
      case 'dateOfExpiry': {
        const kind: MrzDateKind = name === 'dateOfBirth' ? 'birth' : 'expiry';
        const date = parseMrzDate(raw, kind, referenceDate);
        return [{ ...base, value: date?.iso ?? raw, shapeValid: date !== null, date }];
      }
      case 'sex':
        return [{ ...base, value: raw, shapeValid: /^[MFX<]$/.test(raw) }];
      case 'documentCode':
        return [{ ...base, value: trimFillers(raw), shapeValid: /^[A-Z][A-Z0-9<]$/.test(raw) }];
      case 'issuingState':
      case 'nationality':
        return [{ ...base, value: trimFillers(raw), shapeValid: classifyStateCode(raw) !== 'invalid' }];
      default:
        return [{ ...base, value: trimFillers(raw), shapeValid: /^[A-Z0-9<]*$/.test(raw) }];
    }
  }
}

function isDateField(f: MrzField): f is MrzDateField {
  return 'date' in f;
}

function emptyField(): MrzField {
  return { value: '', raw: '', segments: [], checks: [], valid: false, confidence: 0 };
}

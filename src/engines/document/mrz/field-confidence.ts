/**
 * How sure a field's value is what is printed, from what the MRZ itself can show: whether a check digit
 * covers it and holds, whether the check digit can see the confusions its characters allow, and which
 * repairs touched it. The figures are a documented ordering, not fitted probabilities: a verified,
 * untouched field ranks above a repaired one, which ranks above one nothing verifies, which ranks above a
 * failed one. HIGH_CONFIDENCE is reached only by a field a valid check digit covers, that needed no
 * more than type forcing and whose characters have no confusion the check digit is blind to.
 */

import type { PositionKind } from './mrz-layouts.js';
import { allowedIn, alternativesOf, checkDigitBlind } from './ocr-confusions.js';
import type { MrzCheckDigit, MrzPosition, MrzRepairKind, MrzSegment } from './mrz-types.js';

/** A field at or above this confidence can be taken as read; below, confirm it (VIZ, chip, another frame). */
export const HIGH_CONFIDENCE = 0.9;

/** A valid check digit covers the field. */
const VERIFIED = 0.98;
/** No check digit covers the field (the names, sex, codes of ICAO layouts): its shape is all that was checked. */
const UNVERIFIED = 0.8;
/** A check digit covering the field fails: misread or misprinted. */
export const FAILED_CONFIDENCE = 0.1;
const FAILED = FAILED_CONFIDENCE;
/** The value has the wrong shape (a digit in a name, a 13th month). */
const WRONG_SHAPE = 0.5;
/** Per character with a confusion the check digit cannot see (G/6, K/`<`). */
export const BLIND_CONFUSION = 0.85;

const REPAIR_FACTOR: Readonly<Record<MrzRepairKind, number>> = {
  normalize: 1,
  filler: 0.97,
  type: 0.95,
  swap: 0.85,
  length: 0.85,
};
/** A type forcing no check digit confirms. */
const UNCONFIRMED_TYPE_FORCING = 0.9;
/** A length repair the check digits could not single out. */
const AMBIGUOUS_LENGTH = 0.6;

/** A repair, at its position in the final lines. */
export interface RepairMark extends MrzPosition {
  readonly kind: MrzRepairKind;
  readonly ambiguous: boolean;
  /** The character the repair replaced ('' for length repairs). */
  readonly from: string;
}

export interface FieldEvidence {
  readonly segments: readonly MrzSegment[];
  /** The field's own check digit, or the composite where it has none; empty where nothing covers it. */
  readonly checks: readonly MrzCheckDigit[];
  /** What those check digits cover: a swap chosen anywhere there spent their evidence. */
  readonly covers: readonly MrzSegment[];
  /** The composite also covers the field and fails: an error its own check digit passed may be here. */
  readonly compositeFails: boolean;
  readonly shapeValid: boolean;
}

const inSegment = (p: MrzPosition, s: MrzSegment) => p.line === s.line && p.column >= s.start && p.column < s.end;

/**
 * The confidence of one field (0 to 1, three decimals).
 *
 * @example
 * fieldConfidence({ segments, checks: [dateOfBirthCheck], shapeValid: true }, lines, kinds, []); // 0.98
 */
export function fieldConfidence(
  evidence: FieldEvidence,
  lines: readonly string[],
  kinds: readonly (readonly PositionKind[])[],
  repairs: readonly RepairMark[],
): number {
  const { segments, checks, covers, compositeFails, shapeValid } = evidence;
  const verified = checks.length > 0 && checks.every((c) => c.valid);
  let confidence = checks.length === 0 ? UNVERIFIED : verified ? VERIFIED : FAILED;
  if (!shapeValid) confidence *= WRONG_SHAPE;
  // One check digit in ten passes by chance; the failing composite says some error got past.
  if (verified && compositeFails) confidence *= BLIND_CONFUSION;

  if (verified) {
    for (const s of segments) {
      for (let column = s.start; column < s.end; column++) {
        const character = (lines[s.line] ?? '').charAt(column);
        const kind = kinds[s.line]?.[column] ?? 'alnum';
        const blind = alternativesOf(character).some((a) => allowedIn(kind, a) && checkDigitBlind(character, a));
        if (blind) confidence *= BLIND_CONFUSION;
      }
    }
  }

  const digitPositions = checks.map((c) => c.position);
  const touches = (p: MrzPosition) =>
    segments.some((s) => inSegment(p, s)) || digitPositions.some((d) => d.line === p.line && d.column === p.column);
  for (const repair of repairs) {
    if (repair.kind === 'length') {
      // Everything from the edit to the end of the line moved: each field there is as sure as the edit.
      const moved =
        segments.some((s) => s.line === repair.line && s.end > repair.column) ||
        digitPositions.some((d) => d.line === repair.line && d.column >= repair.column);
      if (moved) confidence *= repair.ambiguous ? AMBIGUOUS_LENGTH : REPAIR_FACTOR.length;
    } else if (repair.kind === 'swap' ? covers.some((s) => inSegment(repair, s)) || touches(repair) : touches(repair)) {
      // A K turned to a filler is invisible to the check digit (both weigh 0): nothing confirmed it.
      const blindFiller = repair.kind === 'filler' && repair.from === 'K' && verified;
      confidence *= blindFiller
        ? BLIND_CONFUSION
        : repair.kind === 'type' && !verified
          ? UNCONFIRMED_TYPE_FORCING
          : REPAIR_FACTOR[repair.kind];
    }
  }
  return Math.round(confidence * 1000) / 1000;
}

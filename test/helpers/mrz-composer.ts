/**
 * Writes MRZ lines from field values, straight from ICAO 9303 Parts 4–7 (and the French card's layout),
 * independently of the parser under src/engines/document/mrz so that tests check one against the other.
 */

export type ComposedFormat = 'TD1' | 'TD2' | 'TD3' | 'MRV-A' | 'MRV-B' | 'FRENCH_ID';

export interface MrzTruth {
  /** One or two characters: `P`, `I`, `ID`, `V`… */
  readonly documentCode: string;
  /** One to three letters. */
  readonly issuingState: string;
  /** Components separated by single spaces. */
  readonly surname: string;
  readonly givenNames: string;
  /** Up to 9 characters; TD1 and TD2 take longer ones (ICAO's overflow into the optional data). */
  readonly documentNumber: string;
  readonly nationality: string;
  /** YYMMDD */
  readonly dateOfBirth: string;
  readonly sex: 'M' | 'F' | '<';
  /** YYMMDD */
  readonly dateOfExpiry: string;
  /** TD3's personal number, TD1/TD2/MRV optional data, the French card's office code (6). */
  readonly optionalData1: string;
  /** TD1 line 2 only. */
  readonly optionalData2: string;
}

/** ICAO 9303's specimen passport holder (Anna Maria Eriksson of Utopia), the truth the document tests render. */
export const SPECIMEN_TRUTH: MrzTruth = {
  documentCode: 'P',
  issuingState: 'UTO',
  surname: 'ERIKSSON',
  givenNames: 'ANNA MARIA',
  documentNumber: 'L898902C3',
  nationality: 'UTO',
  dateOfBirth: '740812',
  sex: 'F',
  dateOfExpiry: '320415',
  optionalData1: 'ZE184226B',
  optionalData2: '',
};

function value(c: string): number {
  if (c === '<') return 0;
  if (/[0-9]/.test(c)) return Number(c);
  return c.charCodeAt(0) - 55;
}

/** The 7-3-1 check digit, as a character. */
export function checkDigitOf(text: string): string {
  let sum = 0;
  [...text].forEach((c, i) => (sum += value(c) * [7, 3, 1][i % 3]!));
  return String(sum % 10);
}

const pad = (text: string, length: number) => {
  if (text.length > length) throw new RangeError(`"${text}" is longer than ${length}`);
  return text + '<'.repeat(length - text.length);
};
const filled = (text: string) => text.replace(/ /g, '<');
const names = (t: MrzTruth) => `${filled(t.surname)}<<${filled(t.givenNames)}`;

/** The MRZ lines of a document with these fields. */
export function composeMrz(format: ComposedFormat, t: MrzTruth): string[] {
  const code = pad(t.documentCode, 2);
  const state = pad(t.issuingState, 3);
  const nationality = pad(t.nationality, 3);
  const birth = t.dateOfBirth + checkDigitOf(t.dateOfBirth);
  const expiry = t.dateOfExpiry + checkDigitOf(t.dateOfExpiry);
  const long = t.documentNumber.length > 9;
  // A long number: 9 characters, `<`, then the rest and its check digit and a filler in the optional data.
  const numberPart = long
    ? `${t.documentNumber.slice(0, 9)}<`
    : pad(t.documentNumber, 9) + checkDigitOf(pad(t.documentNumber, 9));
  const overflow = long ? `${t.documentNumber.slice(9)}${checkDigitOf(t.documentNumber)}<` : '';
  switch (format) {
    case 'TD1': {
      const line1 = code + state + numberPart + pad(overflow + t.optionalData1, 15);
      const line2start = birth + t.sex + expiry + nationality + pad(t.optionalData2, 11);
      const composite = checkDigitOf(
        line1.slice(5) + line2start.slice(0, 7) + line2start.slice(8, 15) + line2start.slice(18),
      );
      return [line1, line2start + composite, pad(names(t), 30)];
    }
    case 'TD2': {
      const start = numberPart + nationality + birth + t.sex + expiry + pad(overflow + t.optionalData1, 7);
      const composite = checkDigitOf(start.slice(0, 10) + start.slice(13, 20) + start.slice(21));
      return [code + state + pad(names(t), 31), start + composite];
    }
    case 'TD3': {
      const personal = pad(t.optionalData1, 14);
      const start = numberPart + nationality + birth + t.sex + expiry + personal + checkDigitOf(personal);
      const composite = checkDigitOf(start.slice(0, 10) + start.slice(13, 20) + start.slice(21));
      return [code + state + pad(names(t), 39), start + composite];
    }
    case 'MRV-A':
    case 'MRV-B': {
      const length = format === 'MRV-A' ? 44 : 36;
      return [
        code + state + pad(names(t), length - 5),
        numberPart + nationality + birth + t.sex + expiry + pad(t.optionalData1, length - 28),
      ];
    }
    case 'FRENCH_ID': {
      const line1 = `IDFRA${pad(filled(t.surname), 25)}${pad(t.optionalData1, 6)}`;
      const number = pad(t.documentNumber, 12);
      const givenNames = pad(t.givenNames.replace(/ /g, '<<'), 14);
      const start = number + checkDigitOf(number) + givenNames + birth + t.sex;
      return [line1, start + checkDigitOf(line1 + start)];
    }
  }
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { characterValue, computeCheckDigit } from '../../../../src/engines/document/mrz/check-digit.js';
import { MrzInputError } from '../../../../src/engines/document/mrz/mrz-input-error.js';
import { parseMrzDate } from '../../../../src/engines/document/mrz/mrz-date.js';
import { parseMrz } from '../../../../src/engines/document/mrz/parse-mrz.js';
import { classifyStateCode } from '../../../../src/engines/document/mrz/state-codes.js';
import { checkDigitOf, composeMrz, type MrzTruth } from '../../../helpers/mrz-composer.js';

const referenceDate = new Date('2025-06-01T00:00:00Z');
const parse = (lines: string[]) => parseMrz(lines, { referenceDate });
const codes = (result: ReturnType<typeof parse>) => result.issues.map((i) => `${i.code}:${i.field}`);

// The specimens of ICAO Doc 9303 (8th edition): Part 4 (TD3), Part 5 (TD1), Part 6 (TD2), Part 7 (MRV-A, MRV-B).
const ICAO = {
  TD1: ['I<UTOD231458907<<<<<<<<<<<<<<<', '7408122F1204159UTO<<<<<<<<<<<6', 'ERIKSSON<<ANNA<MARIA<<<<<<<<<<'],
  TD1_LONG_NUMBER: [
    'I<UTOD23145890<7349<<<<<<<<<<<',
    '3407127M9507122UTO<<<<<<<<<<<2',
    'STEVENSON<<PETER<JOHN<<<<<<<<<',
  ],
  TD2: ['I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907UTO7408122F1204159<<<<<<<6'],
  TD3: ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'],
  MRV_A: ['V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L8988901C4XXX4009078F96121096ZE184226B<<<<<<'],
  MRV_B: ['V<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'L8988901C4XXX4009078F9612109<<<<<<<<'],
};

describe('check digits', () => {
  it('weights 7, 3, 1 over values 0-9, A-Z = 10-35, < = 0', () => {
    assert.equal(computeCheckDigit('L898902C3'), 6);
    assert.equal(computeCheckDigit('740812'), 2);
    assert.equal(computeCheckDigit('120415'), 9);
    assert.equal(computeCheckDigit('<<<<<<<<<<<<<<'), 0);
    assert.equal(characterValue('A'), 10);
    assert.equal(characterValue('Z'), 35);
    assert.equal(characterValue('<'), 0);
    assert.equal(characterValue('a'), null);
  });
  it('cannot tell < from K, nor G from 6: their values differ by multiples of 10', () => {
    assert.equal(computeCheckDigit('AB<'), computeCheckDigit('ABK'));
    assert.equal(computeCheckDigit('AB6'), computeCheckDigit('ABG'));
    assert.notEqual(computeCheckDigit('AB0'), computeCheckDigit('ABO'));
  });
});

describe('parseMrz on the ICAO 9303 specimens', () => {
  it('TD3 passport (Part 4)', () => {
    const mrz = parse(ICAO.TD3);
    assert.equal(mrz.format, 'TD3');
    assert.equal(mrz.valid, true);
    const f = mrz.fields;
    assert.equal(f.documentCode.value, 'P');
    assert.equal(f.issuingState.value, 'UTO');
    assert.equal(f.surname.value, 'ERIKSSON');
    assert.equal(f.givenNames.value, 'ANNA MARIA');
    assert.equal(f.documentNumber.value, 'L898902C3');
    assert.equal(f.nationality?.value, 'UTO');
    assert.deepEqual(f.dateOfBirth.date, { raw: '740812', year: 1974, month: 8, day: 12, iso: '1974-08-12' });
    assert.equal(f.sex.value, 'F');
    assert.equal(f.dateOfExpiry?.date?.iso, '2012-04-15');
    assert.equal(f.personalNumber?.value, 'ZE184226B');
    assert.equal(f.optionalData1, null);
    assert.deepEqual(
      mrz.checkDigits.map((c) => [c.name, c.printed, c.valid]),
      [
        ['documentNumber', '6', true],
        ['dateOfBirth', '2', true],
        ['dateOfExpiry', '9', true],
        ['personalNumber', '1', true],
        ['composite', '0', true],
      ],
    );
    // npm mrz refuses UTO; here a specimen code is a warning, not an error.
    assert.deepEqual(codes(mrz), ['SPECIMEN_STATE_CODE:issuingState', 'SPECIMEN_STATE_CODE:nationality']);
    assert.ok(mrz.issues.every((i) => i.severity === 'warning'));
  });

  it('TD1 identity card (Part 5), with raw values and positions kept', () => {
    const mrz = parse(ICAO.TD1);
    assert.equal(mrz.format, 'TD1');
    assert.equal(mrz.valid, true);
    const f = mrz.fields;
    assert.equal(f.documentCode.value, 'I');
    assert.equal(f.documentCode.raw, 'I<');
    assert.equal(f.documentNumber.value, 'D23145890');
    assert.deepEqual(f.documentNumber.segments, [{ line: 0, start: 5, end: 14 }]);
    assert.deepEqual(f.documentNumber.checks, ['documentNumber', 'composite']);
    assert.equal(f.optionalData1?.value, '');
    assert.equal(f.optionalData2?.value, '');
    assert.equal(f.dateOfBirth.date?.iso, '1974-08-12');
    assert.equal(f.dateOfExpiry?.date?.iso, '2012-04-15');
    assert.equal(f.nationality?.value, 'UTO');
    assert.equal(f.surname.value, 'ERIKSSON');
    assert.equal(f.givenNames.value, 'ANNA MARIA');
    assert.equal(f.personalNumber, null);
  });

  it('TD1 with a document number longer than 9 characters (Part 5 note j)', () => {
    const mrz = parse(ICAO.TD1_LONG_NUMBER);
    assert.equal(mrz.valid, true);
    assert.equal(mrz.fields.documentNumber.value, 'D23145890734');
    assert.deepEqual(mrz.checkDigits[0], {
      name: 'documentNumber',
      position: { line: 0, column: 18 },
      printed: '9',
      expected: 9,
      valid: true,
    });
    assert.equal(mrz.fields.optionalData1?.value, '');
    assert.equal(mrz.fields.dateOfBirth.date?.iso, '1934-07-12');
    assert.equal(mrz.fields.dateOfExpiry?.date?.iso, '1995-07-12');
  });

  it('TD1 long number whose check digit includes the < between its parts (as Belgian cards print it)', () => {
    // 000590240 + 601: without the filler the digit is 1, with it 3; the issuer printed 3.
    assert.equal(checkDigitOf('000590240601'), '1');
    assert.equal(checkDigitOf('000590240<601'), '3');
    const line1 = 'IDBEL000590240<6013<<<<<<<<<<<';
    const line2start = '8512017F1311048BEL85120100200';
    const composite = checkDigitOf(
      line1.slice(5) + line2start.slice(0, 7) + line2start.slice(8, 15) + line2start.slice(18),
    );
    const mrz = parse([line1, line2start + composite, 'SPECIMEN<<TEST<<<<<<<<<<<<<<<<']);
    assert.equal(mrz.fields.documentNumber.value, '000590240601');
    assert.equal(mrz.checkDigits[0]?.valid, true);
    assert.equal(mrz.checkDigits[0]?.expected, 3);
    assert.equal(mrz.valid, true);
  });

  it('TD2 (Part 6)', () => {
    const mrz = parse(ICAO.TD2);
    assert.equal(mrz.format, 'TD2');
    assert.equal(mrz.valid, true);
    assert.equal(mrz.fields.documentNumber.value, 'D23145890');
    assert.equal(mrz.fields.surname.value, 'ERIKSSON');
    assert.equal(mrz.fields.optionalData1?.value, '');
    assert.deepEqual(
      mrz.checkDigits.map((c) => c.name),
      ['documentNumber', 'dateOfBirth', 'dateOfExpiry', 'composite'],
    );
  });

  it('MRV-A and MRV-B visas (Part 7): no composite check digit, XXX nationality', () => {
    const a = parse(ICAO.MRV_A);
    assert.equal(a.format, 'MRV-A');
    assert.equal(a.valid, true);
    assert.equal(a.fields.documentCode.value, 'V');
    assert.equal(a.fields.documentNumber.value, 'L8988901C');
    assert.equal(a.fields.nationality?.value, 'XXX');
    assert.equal(a.fields.dateOfBirth.date?.iso, '1940-09-07');
    assert.equal(a.fields.dateOfExpiry?.date?.iso, '1996-12-10');
    assert.equal(a.fields.optionalData1?.value, '6ZE184226B');
    assert.deepEqual(
      a.checkDigits.map((c) => c.name),
      ['documentNumber', 'dateOfBirth', 'dateOfExpiry'],
    );
    // Nothing verifies a visa's optional data.
    assert.deepEqual(a.fields.optionalData1?.checks, []);
    const b = parse(ICAO.MRV_B);
    assert.equal(b.format, 'MRV-B');
    assert.equal(b.valid, true);
    assert.equal(b.fields.givenNames.value, 'ANNA MARIA');
    assert.equal(b.fields.optionalData1?.value, '');
  });

  it('the French national identity card, its own 2×36 layout', () => {
    const truth: MrzTruth = {
      documentCode: 'ID',
      issuingState: 'FRA',
      surname: 'DUPONT',
      givenNames: 'MARIE CLAIRE',
      documentNumber: '880692310285',
      nationality: '',
      dateOfBirth: '650612',
      sex: 'F',
      dateOfExpiry: '',
      optionalData1: '692048',
      optionalData2: '',
    };
    const lines = composeMrz('FRENCH_ID', truth);
    assert.deepEqual(lines, ['IDFRADUPONT<<<<<<<<<<<<<<<<<<<692048', '8806923102858MARIE<<CLAIRE<6506124F2']);
    const mrz = parse(lines);
    assert.equal(mrz.format, 'FRENCH_ID');
    assert.equal(mrz.valid, true);
    assert.equal(mrz.fields.documentCode.value, 'ID');
    assert.equal(mrz.fields.surname.value, 'DUPONT');
    assert.equal(mrz.fields.givenNames.value, 'MARIE CLAIRE');
    assert.equal(mrz.fields.documentNumber.value, '880692310285');
    assert.equal(mrz.fields.dateOfBirth.date?.iso, '1965-06-12');
    assert.equal(mrz.fields.optionalData1?.value, '692048');
    assert.equal(mrz.fields.nationality, null);
    assert.equal(mrz.fields.dateOfExpiry, null);
    // The final check digit covers both lines, names included: here the names are verified.
    assert.deepEqual(mrz.fields.surname.checks, ['composite']);
    assert.ok(mrz.fields.surname.confidence > parse(ICAO.TD3).fields.surname.confidence);
  });

  it('accepts Germany’s one-letter code D<< as known', () => {
    const lines = composeMrz('TD3', {
      documentCode: 'P',
      issuingState: 'D',
      surname: 'MUSTERMANN',
      givenNames: 'ERIKA',
      documentNumber: 'C01X00T47',
      nationality: 'D',
      dateOfBirth: '640812',
      sex: 'F',
      dateOfExpiry: '310801',
      optionalData1: '',
      optionalData2: '',
    });
    const mrz = parse(lines);
    assert.equal(mrz.valid, true);
    assert.equal(mrz.fields.issuingState.value, 'D');
    assert.equal(mrz.fields.issuingState.raw, 'D<<');
    assert.deepEqual(mrz.issues, []);
  });
});

describe('parseMrz reports what is wrong', () => {
  it('a wrong printed check digit makes the parse invalid, naming the check', () => {
    const lines = [ICAO.TD3[0]!, ICAO.TD3[1]!.replace('7408122', '7408123')];
    const mrz = parse(lines);
    assert.equal(mrz.valid, false);
    assert.ok(codes(mrz).includes('CHECK_DIGIT_MISMATCH:dateOfBirth'));
    assert.ok(codes(mrz).includes('CHECK_DIGIT_MISMATCH:composite'));
    assert.equal(mrz.fields.dateOfBirth.valid, false);
    assert.equal(mrz.fields.dateOfBirth.confidence, 0.1);
    assert.equal(mrz.fields.documentNumber.valid, false, 'the composite covering it failed');
  });

  it('an unknown state code of the right shape is a warning; a malformed one an error', () => {
    const unknown = parse([ICAO.TD3[0]!.replace('UTO', 'QQQ'), ICAO.TD3[1]!]);
    assert.equal(unknown.valid, true);
    assert.ok(codes(unknown).includes('UNKNOWN_STATE_CODE:issuingState'));
    const malformed = parse([ICAO.TD3[0]!.replace('P<UTO', 'P<U1O'), ICAO.TD3[1]!]);
    assert.equal(malformed.valid, false);
    assert.ok(codes(malformed).includes('INVALID_STATE_CODE:issuingState'));
    assert.equal(classifyStateCode('UTO'), 'specimen');
    assert.equal(classifyStateCode('XXA'), 'known');
    assert.equal(classifyStateCode('<UT'), 'invalid');
  });

  it('a digit in a name or a letter in a date is reported, not changed (repairMrz does that)', () => {
    const mrz = parse([ICAO.TD3[0]!.replace('ERIKSSON', 'ERIK55ON'), ICAO.TD3[1]!]);
    assert.equal(mrz.valid, false);
    assert.equal(mrz.fields.surname.value, 'ERIK55ON');
    assert.ok(codes(mrz).includes('INVALID_CHARACTERS:surname'));
  });

  it('refuses input of no MRZ format with a typed error that echoes no personal data', () => {
    const problem = (input: string | string[]) => {
      try {
        parse(typeof input === 'string' ? [input] : input);
      } catch (error) {
        assert.ok(error instanceof MrzInputError);
        assert.ok(!error.message.includes('ERIKSSON'));
        return error.problem;
      }
      return null;
    };
    assert.equal(problem(ICAO.TD3[0]!), 'LINE_COUNT');
    assert.equal(problem([...ICAO.TD1, ICAO.TD1[2]!]), 'LINE_COUNT');
    assert.equal(problem([ICAO.TD3[0]!, ICAO.TD3[1]!.slice(1)]), 'LINE_LENGTH');
    assert.equal(problem([ICAO.TD3[0]!.toLowerCase(), ICAO.TD3[1]!]), 'CHARACTERS');
    assert.equal(problem(['x'.repeat(2000)]), 'LINE_LENGTH');
  });

  it('takes one string with line breaks as well as an array', () => {
    assert.deepEqual(parseMrz(ICAO.TD1.join('\n'), { referenceDate }).fields, parse(ICAO.TD1).fields);
  });
});

describe('MRZ dates and their century', () => {
  it('birth: the latest century that puts the date on or before the reference day', () => {
    assert.equal(parseMrzDate('740812', 'birth', referenceDate)?.year, 1974);
    assert.equal(parseMrzDate('250601', 'birth', referenceDate)?.year, 2025);
    assert.equal(parseMrzDate('250602', 'birth', referenceDate)?.year, 1925);
    assert.equal(parseMrzDate('000229', 'birth', referenceDate)?.iso, '2000-02-29');
  });
  it('expiry: 20YY unless more than 20 years ahead of the reference year', () => {
    assert.equal(parseMrzDate('451231', 'expiry', referenceDate)?.year, 2045);
    assert.equal(parseMrzDate('460101', 'expiry', referenceDate)?.year, 1946);
    assert.equal(parseMrzDate('961210', 'expiry', referenceDate)?.year, 1996);
  });
  it('keeps unknown month or day (<<) and refuses impossible dates', () => {
    assert.deepEqual(parseMrzDate('7408<<', 'birth', referenceDate), {
      raw: '7408<<',
      year: 1974,
      month: 8,
      day: null,
      iso: null,
    });
    assert.equal(parseMrzDate('74<<12', 'birth', referenceDate), null);
    assert.equal(parseMrzDate('741301', 'birth', referenceDate), null);
    assert.equal(parseMrzDate('740431', 'birth', referenceDate), null);
    assert.equal(parseMrzDate('010229', 'birth', referenceDate), null);
    assert.equal(parseMrzDate('74O812', 'birth', referenceDate), null);
  });
  it('a partial birth date is a warning; an impossible one an error', () => {
    const partial = composeMrz('TD3', {
      documentCode: 'P',
      issuingState: 'UTO',
      surname: 'ERIKSSON',
      givenNames: 'ANNA',
      documentNumber: 'L898902C3',
      nationality: 'UTO',
      dateOfBirth: '7408<<',
      sex: 'F',
      dateOfExpiry: '320415',
      optionalData1: '',
      optionalData2: '',
    });
    const mrz = parse(partial);
    assert.equal(mrz.valid, true);
    assert.ok(codes(mrz).includes('PARTIAL_DATE:dateOfBirth'));
    assert.equal(mrz.fields.dateOfBirth.value, '7408<<');
  });
});

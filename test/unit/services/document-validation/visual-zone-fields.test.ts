import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMrz } from '../../../../src/engines/document/mrz/parse-mrz.js';
import type { VisualZoneFields } from '../../../../src/engines/document/visual-zone-fields.js';
import { mrzDocumentFields } from '../../../../src/services/document-validation/mrz-document-fields.js';
import { overallDocumentFields } from '../../../../src/services/document-validation/overall-document-fields.js';
import { visualZoneDocumentFields } from '../../../../src/services/document-validation/visual-zone-document-fields.js';
import { sameName, visualZoneConflicts } from '../../../../src/services/document-validation/visual-zone-security.js';
import { composeMrz, SPECIMEN_TRUTH } from '../../../helpers/mrz-composer.js';

const referenceDate = new Date('2026-01-01T00:00:00Z');
const mrz = parseMrz(composeMrz('TD3', SPECIMEN_TRUTH), { referenceDate });
const sure = <T>(value: T) => ({ value, confidence: 0.99 });
const printed: VisualZoneFields = {
  surname: sure('Eriksson'),
  givenNames: sure('Anna-Maria'),
  dateOfBirth: sure({ year: 1974, month: 8, day: 12, text: '12 AUG/AOUT 74' }),
  dateOfExpiry: sure({ year: 2032, month: 4, day: 15, text: '15 APR/AVR 32' }),
  documentNumber: sure('L898902C3'),
  nationality: sure('UTOPIAN'),
  sex: sure('F'),
};

describe('names compared as the MRZ writes them', () => {
  it('ignores case, accents, hyphens, apostrophes and OCR-merged spaces; accepts ICAO transliteration', () => {
    assert.ok(sameName('Anna-Maria', 'ANNA MARIA', false));
    assert.ok(sameName('ANNAMARIA', 'ANNA MARIA', false));
    assert.ok(sameName('Müller', 'MUELLER', false));
    assert.ok(sameName('Müller', 'MULLER', false));
    assert.ok(sameName("O'Brien", 'OBRIEN', false));
    assert.ok(sameName('Hélène', 'HELENE', false));
    assert.ok(!sameName('Johansson', 'ERIKSSON', false));
  });

  it('lets a longer printed name start with a truncated MRZ name only when the MRZ field is full', () => {
    assert.ok(sameName('Wolfeschlegelsteinhausen', 'WOLFESCHLEGEL', true));
    assert.ok(!sameName('Wolfeschlegelsteinhausen', 'WOLFESCHLEGEL', false));
  });
});

describe('visual zone against the MRZ', () => {
  it('gives no reason when the printed zone agrees', () => {
    assert.deepEqual(visualZoneConflicts(printed, mrz), []);
  });

  it('lists each differing field; an unsure line is not compared', () => {
    const altered: VisualZoneFields = {
      ...printed,
      surname: sure('ERIKSEN'),
      dateOfBirth: sure({ year: 1975, month: 8, day: 12, text: '12.08.1975' }),
    };
    assert.deepEqual(visualZoneConflicts(altered, mrz), [
      'VIZ_MRZ_MISMATCH',
      'VIZ_MRZ_MISMATCH_SURNAME',
      'VIZ_MRZ_MISMATCH_DATE_OF_BIRTH',
    ]);
    assert.deepEqual(visualZoneConflicts({ surname: { value: 'EROKSSON', confidence: 0.85 } }, mrz), []);
  });
});

describe('overall fields', () => {
  const optical = visualZoneDocumentFields([printed]);

  it('takes the printed values into optical, nationality only as a code', () => {
    assert.equal(optical.surname, 'Eriksson');
    assert.equal(optical.dateOfBirth?.text, '12 AUG/AOUT 74');
    assert.equal(optical.nationality, undefined);
  });

  it('prefers a valid MRZ, the visual zone without one, and a proven chip over both', () => {
    const mrzFields = mrzDocumentFields(mrz);
    const valid = overallDocumentFields({ mrz, mrzFields, optical, rfid: null, chipAuthentic: false });
    assert.deepEqual(valid, mrzFields);
    const none = overallDocumentFields({ mrz: null, mrzFields: {}, optical, rfid: null, chipAuthentic: false });
    assert.equal(none.surname, 'Eriksson');
    assert.equal(none.dateOfExpiry?.year, 2032);
    const chip = overallDocumentFields({
      mrz,
      mrzFields,
      optical,
      rfid: { ...mrzFields, surname: 'CHIPNAME' },
      chipAuthentic: true,
    });
    assert.equal(chip.surname, 'CHIPNAME');
  });

  it('with a damaged MRZ keeps its fields a valid check digit covers and takes the printed names', () => {
    const [line1 = '', line2 = ''] = composeMrz('TD3', SPECIMEN_TRUTH);
    const damaged = parseMrz([line1.replace('ERIKSSON', 'ERIKSS0N'), `${line2.slice(0, 18)}9${line2.slice(19)}`], {
      referenceDate,
    });
    assert.equal(damaged.valid, false);
    const overall = overallDocumentFields({
      mrz: damaged,
      mrzFields: mrzDocumentFields(damaged),
      optical,
      rfid: null,
      chipAuthentic: false,
    });
    assert.equal(overall.surname, 'Eriksson');
    assert.equal(overall.dateOfBirth?.day, 12, 'the birth date whose check digit fails is the printed one');
    assert.equal(overall.documentNumber, 'L898902C3');
    assert.equal(overall.dateOfExpiry?.text, '320415', 'the expiry whose check digit holds stays the MRZ’s');
  });
});

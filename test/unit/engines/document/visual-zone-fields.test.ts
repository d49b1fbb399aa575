import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  isMrzLike,
  labelFields,
  parsePrintedDate,
  visualZoneFields,
} from '../../../../src/engines/document/visual-zone-fields.js';
import type { VisualTextLine } from '../../../../src/engines/document/visual-zone-text.js';

const reading = { referenceDate: new Date('2026-01-01T00:00:00Z') };

/** A text line at (x, y), 30 px high, 12 px per character. */
const line = (text: string, x: number, y: number, confidence = 0.99): VisualTextLine => ({
  text,
  confidence,
  box: { x, y, width: text.length * 12, height: 30 },
});

describe('visual-zone labels', () => {
  it('recognises bilingual labels, OCR-merged words and a misread slash', () => {
    assert.deepEqual(labelFields('Surname/Nom'), ['surname']);
    assert.deepEqual(labelFields('Surmame/ Nom'), ['surname']);
    assert.deepEqual(labelFields('Given names/Prénoms'), ['givenNames']);
    assert.deepEqual(labelFields('DateofexpiryDatedexpiration'), ['dateOfExpiry']);
    assert.deepEqual(labelFields('Sexl Sexe'), ['sex']);
    assert.deepEqual(labelFields('Apellidos'), ['surname']);
    assert.deepEqual(labelFields('Vorname(n)'), ['givenNames']);
    assert.deepEqual(labelFields('Geburtstag'), ['dateOfBirth']);
    assert.deepEqual(labelFields('Datea BrhDate denassance'), ['dateOfBirth']);
    assert.deepEqual(labelFields('Primary identifier/'), ['surname']);
  });

  it('takes no value or MRZ line for a label', () => {
    assert.deepEqual(labelFields('ERIKSSON'), []);
    assert.deepEqual(labelFields('ANNA MARIA'), []);
    assert.deepEqual(labelFields('12 AUG/AOUT 74'), []);
    assert.ok(isMrzLike('P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<'));
    assert.ok(isMrzLike('L898902C36UTO7408122F1204159ZE184226B<<<<<10'));
    assert.ok(!isMrzLike('ERIKSSON'));
  });
});

describe('printed dates', () => {
  it('reads the forms data pages print', () => {
    const cases: [string, number, number, number][] = [
      ['12 AUG 1974', 1974, 8, 12],
      ['12 AUG/AOUT 74', 1974, 8, 12],
      ['12AUGUST/AOUT74', 1974, 8, 12],
      ['12AUG/A0UT1974', 1974, 8, 12],
      ['20 Juin/Jun 1978', 1978, 6, 20],
      ['12.08.1974', 1974, 8, 12],
      ['12/08/1974', 1974, 8, 12],
      ['1974-08-12', 1974, 8, 12],
      ['07 DIC 1969', 1969, 12, 7],
    ];
    for (const [text, year, month, day] of cases) {
      const date = parsePrintedDate(text, 'birth', reading);
      assert.deepEqual(date && [date.year, date.month, date.day], [year, month, day], text);
    }
  });

  it('places two-digit years by the field: a birth in the past, an expiry in 20YY unless 20+ years ahead', () => {
    assert.equal(parsePrintedDate('15 APR/AVR 32', 'other', reading)?.year, 2032);
    assert.equal(parsePrintedDate('15 APR/AVR 32', 'birth', reading)?.year, 1932);
    assert.equal(parsePrintedDate('07SEP/SEP86', 'other', reading)?.year, 1986);
  });

  it('reads numeric dates month first only when told, and refuses impossible dates', () => {
    assert.deepEqual(parsePrintedDate('10/04/49', 'birth', { ...reading, monthFirst: true })?.month, 10);
    assert.deepEqual(parsePrintedDate('10/04/49', 'birth', reading)?.month, 4);
    assert.equal(parsePrintedDate('31.04.1974', 'birth', reading), null);
    assert.equal(parsePrintedDate('ERIKSSON', 'birth', reading), null);
    assert.equal(parsePrintedDate('12 FOO 1974', 'birth', reading), null);
  });
});

describe('visual-zone fields', () => {
  it('takes each value from the row under its label, not the next label’s', () => {
    const lines = [
      line('Surname/Nom', 300, 60),
      line('ERIKSSON', 300, 92),
      line('Given names/Prénoms', 300, 130),
      line('ANNA MARIA', 300, 162, 0.93),
      line('Date of birth/Date de naissance', 300, 200),
      line('12AUG/AOUT1974', 300, 232),
      line('Sex/Sexe', 700, 200),
      line('F', 700, 232),
      line('Date of expiry/Date d’expiration', 300, 270),
      line('15 APR/AVR 2032', 300, 302),
      line('P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 50, 600),
    ];
    const fields = visualZoneFields(lines, reading.referenceDate);
    assert.equal(fields.surname?.value, 'ERIKSSON');
    assert.deepEqual(fields.givenNames, { value: 'ANNA MARIA', confidence: 0.93 });
    assert.deepEqual(fields.dateOfBirth?.value, { year: 1974, month: 8, day: 12, text: '12AUG/AOUT1974' });
    assert.equal(fields.dateOfExpiry?.value.year, 2032);
    assert.equal(fields.sex?.value, 'F');
  });

  it('leaves a field out when the line under its label is not of its kind (an unreadable date)', () => {
    const lines = [
      line('Date of birth/Date de naissance', 300, 200),
      line('1Z AUG/A?UT', 300, 232),
      line('Date of expiry/Date d’expiration', 300, 270),
      line('15 APR/AVR 2032', 300, 302),
    ];
    const fields = visualZoneFields(lines, reading.referenceDate);
    assert.equal(fields.dateOfBirth, undefined, 'the expiry two rows down is not the birth date');
    assert.equal(fields.dateOfExpiry?.value.year, 2032);
  });

  it('reads a value right of its label, a full name after a comma, and a date on its label line', () => {
    const lines = [
      line('Name/Nom', 300, 60),
      line('ERIKSSON, ANNA MARIA', 300, 92),
      line('Sex', 300, 140),
      line('F', 360, 140),
      line('CARD EXPIRES 11/01/34', 300, 200),
    ];
    const fields = visualZoneFields(lines, reading.referenceDate);
    assert.equal(fields.surname?.value, 'ERIKSSON');
    assert.equal(fields.givenNames?.value, 'ANNA MARIA');
    assert.equal(fields.sex?.value, 'F');
    assert.deepEqual(fields.dateOfExpiry?.value.day, 11);
  });

  it('without labels, assigns birth and expiry by order only when three dates are printed', () => {
    const two = [line('20 JUN 1978', 300, 100), line('08 AUG 2006', 300, 200)];
    const fromTwo = visualZoneFields(two, reading.referenceDate);
    assert.equal(fromTwo.dateOfBirth?.value.year, 1978);
    assert.equal(fromTwo.dateOfExpiry, undefined);
    const three = [...two, line('08 AUG 2031', 300, 300)];
    assert.equal(visualZoneFields(three, reading.referenceDate).dateOfExpiry?.value.year, 2031);
  });
});

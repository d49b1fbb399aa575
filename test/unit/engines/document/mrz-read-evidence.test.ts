import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { judgeMrzRead } from '../../../../src/engines/document/mrz-read.js';
import type { MrzCharacterEvidence, MrzReadEvidence } from '../../../../src/engines/document/mrz/mrz-types.js';
import {
  MEANINGFUL_ALTERNATIVE,
  repairGate,
  SURE_READ,
  unsureOf,
} from '../../../../src/engines/document/mrz/read-evidence.js';
import { repairMrz } from '../../../../src/engines/document/mrz/repair-mrz.js';
import {
  alternativesFrom,
  decodeMrzSteps,
  MRZ_ALPHABET,
  type RecognizedLine,
} from '../../../../src/engines/document/paddle-text-recognizer.js';
import { composeMrz, SPECIMEN_TRUTH } from '../../../helpers/mrz-composer.js';

const TD3 = composeMrz('TD3', SPECIMEN_TRUTH);
const [LINE1 = '', LINE2 = ''] = TD3;

/** What our OCR-B recogniser gives a clean rendered glyph: all but certain, nothing else held possible. */
const SURE: MrzCharacterEvidence = { probability: 0.9999, alternatives: [] };

/** Sure evidence for every character of the lines, with `unsure` put in at line:column keys. */
function evidenceFor(lines: readonly string[], unsure: Record<string, MrzCharacterEvidence> = {}): MrzReadEvidence {
  return lines.map((line, l) => [...line].map((_, c) => unsure[`${l}:${c}`] ?? SURE));
}

const failing = (r: ReturnType<typeof repairMrz>) =>
  r.issues.filter((i) => i.code === 'CHECK_DIGIT_MISMATCH').map((i) => i.field);

/** A line read by a recogniser: the text, its probabilities, and alternatives per character. */
function recognized(text: string, at: Record<number, MrzCharacterEvidence> = {}): RecognizedLine {
  const chars = [...text];
  return {
    text,
    confidences: chars.map((_, i) => at[i]?.probability ?? SURE.probability),
    alternatives: chars.map((_, i) => at[i]?.alternatives ?? []),
  };
}

describe('repair gated by the OCR evidence', () => {
  // 740B12: a B printed in the birth date, the check digit computed for 740812 (the mrz library's test
  // strings, rendered in OCR-B: our recogniser reads the B at 1.000 and its 8 at < 0.0001).
  const misprinted = [LINE1, LINE2.replace('7408122', '740B122')];
  const bColumn = LINE2.indexOf('7408122') + 3;

  it('a letter read sure in a date is kept as printed: invalid, the failing check reported', () => {
    const r = repairMrz(misprinted, { evidence: evidenceFor(misprinted) });
    assert.deepEqual(r.lines, misprinted);
    assert.deepEqual(r.changes, []);
    assert.equal(r.valid, false);
    assert.ok(failing(r).includes('dateOfBirth'));
    assert.equal(r.fields.dateOfBirth.valid, false);
  });

  it('the same letter read unsure (its digit held possible) is still forced, and then valid', () => {
    const unsure = { probability: 0.7, alternatives: [{ character: '8', probability: 0.28 }] };
    const r = repairMrz(misprinted, { evidence: evidenceFor(misprinted, { [`1:${bColumn}`]: unsure }) });
    assert.deepEqual(r.lines, TD3);
    assert.deepEqual(
      r.changes.map((c) => `${c.kind} ${c.from}>${c.to}`),
      ['type B>8'],
    );
    assert.equal(r.valid, true);
  });

  it('a sure read with a small but real alternative (as read on a Swiss ID photo) is repaired', () => {
    // Our recogniser read the Swiss card's expiry 0 as O at 0.985 with 0.0095 for 0.
    const photo = { probability: 0.985, alternatives: [{ character: '8', probability: 0.0095 }] };
    assert.ok(photo.probability >= SURE_READ && 0.0095 >= MEANINGFUL_ALTERNATIVE);
    const r = repairMrz(misprinted, { evidence: evidenceFor(misprinted, { [`1:${bColumn}`]: photo }) });
    assert.equal(r.valid, true);
  });

  it('without evidence (text of unknown origin) every repair acts, as before', () => {
    assert.equal(repairMrz(misprinted).valid, true);
  });

  it('a swap in the document number only where the OCR was unsure of the character', () => {
    // L8989O2C3: an O printed where the check digit was computed for 0.
    const printed = [LINE1, LINE2.replace('L898902C3', 'L8989O2C3')];
    const sure = repairMrz(printed, { evidence: evidenceFor(printed) });
    assert.deepEqual(sure.lines, printed);
    assert.equal(sure.valid, false);
    assert.ok(failing(sure).includes('documentNumber'));
    const unsure = { probability: 0.6, alternatives: [{ character: '0', probability: 0.39 }] };
    const read = repairMrz(printed, { evidence: evidenceFor(printed, { '1:5': unsure }) });
    assert.deepEqual(read.lines, TD3);
    assert.equal(read.valid, true);
  });

  it('a swap is unique among the positions the OCR was unsure of', () => {
    // Two unsure characters in the number: the O (whose 0 makes the check digit hold) and an 8 that could
    // be a B (which does not): the O is the only explanation.
    const printed = [LINE1, LINE2.replace('L898902C3', 'L8989O2C3')];
    const evidence = evidenceFor(printed, {
      '1:1': { probability: 0.8, alternatives: [{ character: 'B', probability: 0.19 }] },
      '1:5': { probability: 0.8, alternatives: [{ character: '0', probability: 0.19 }] },
    });
    const r = repairMrz(printed, { evidence });
    assert.deepEqual(r.lines, TD3);
  });

  it('a K read sure inside a filler run stays a K', () => {
    const printed = [LINE1.replace('MARIA<<<<<<', 'MARIA<<<<K<'), LINE2];
    const at = printed[0]!.indexOf('K', 20);
    const sure = repairMrz(printed, { evidence: evidenceFor(printed) });
    assert.deepEqual(sure.lines, printed);
    const unsure = { probability: 0.55, alternatives: [{ character: '<', probability: 0.44 }] };
    const read = repairMrz(printed, { evidence: evidenceFor(printed, { [`0:${at}`]: unsure }) });
    assert.deepEqual(read.lines, TD3);
  });

  it('the evidence follows the columns a length repair moves', () => {
    // The number's check digit dropped by the read (the length repair inserts it back), and the B read
    // unsure: after the insertion the B's evidence must still be the B's, one column further on.
    const printed = [LINE1, misprinted[1]!.slice(0, 9) + misprinted[1]!.slice(10)];
    assert.equal(printed[1]!.length, 43);
    const unsure = { probability: 0.7, alternatives: [{ character: '8', probability: 0.28 }] };
    const evidence = evidenceFor(printed, { [`1:${bColumn - 1}`]: unsure });
    const r = repairMrz(printed, { evidence });
    assert.equal(r.lines[1], TD3[1]);
    // Sure everywhere: the inserted check digit is no evidence, but the B still is and stays.
    const sure = repairMrz(printed, { evidence: evidenceFor(printed) });
    assert.equal(sure.lines[1]!.charAt(bColumn), 'B');
    assert.equal(sure.valid, false);
  });

  it('a line whose evidence does not line up with it is not gated', () => {
    const gate = repairGate([[SURE], null], ['AB', 'CD']);
    assert.equal(gate(0, 1, 'X'), true);
    assert.equal(gate(1, 0, 'X'), true);
    assert.equal(repairGate([[SURE, SURE]], ['AB'])(0, 0, 'X'), false);
  });

  it('unsureOf: below SURE_READ, or the repair character held at MEANINGFUL_ALTERNATIVE or more', () => {
    assert.equal(unsureOf({ probability: SURE_READ - 0.01, alternatives: [] }, '8'), true);
    assert.equal(unsureOf({ probability: 0.99, alternatives: [{ character: '8', probability: 0.001 }] }, '8'), false);
    assert.equal(unsureOf({ probability: 0.99, alternatives: [{ character: '8', probability: 0.005 }] }, '8'), true);
    assert.equal(unsureOf({ probability: 0.99, alternatives: [{ character: 'S', probability: 0.005 }] }, '8'), false);
  });
});

describe('a PaddleOCR read judged on the OCR-B cells of the same line images', () => {
  const misprinted = [LINE1, LINE2.replace('7408122', '740B122')];
  const bColumn = LINE2.indexOf('7408122') + 3;
  const paddleReadsDigit = [recognized(LINE1), recognized(LINE2)];

  it('a look-alike PaddleOCR read where our cell was sure of the letter takes the letter: not valid', () => {
    const cells = misprinted.map((l) => recognized(l));
    const read = judgeMrzRead(paddleReadsDigit, 'paddle', cells);
    assert.deepEqual(read.lines, misprinted);
    assert.equal(read.complete, false);
    const r = repairMrz(read.lines, { evidence: read.evidence });
    assert.equal(r.valid, false);
    assert.ok(failing(r).includes('dateOfBirth'));
  });

  it("where our cell was unsure, PaddleOCR's character stands", () => {
    const cells = [
      recognized(misprinted[0]!),
      recognized(misprinted[1]!, {
        [bColumn]: { probability: 0.6, alternatives: [{ character: '8', probability: 0.35 }] },
      }),
    ];
    const read = judgeMrzRead(paddleReadsDigit, 'paddle', cells);
    assert.deepEqual(read.lines, TD3);
    assert.equal(read.complete, true);
  });

  it('without cells (no OCR-B read of that length) a PaddleOCR read has no evidence and is repaired as before', () => {
    const read = judgeMrzRead([recognized(misprinted[0]!), recognized(misprinted[1]!)], 'paddle');
    assert.ok(read.evidence.every((line) => line?.every((c) => c === null)));
    assert.equal(repairMrz(read.lines, { evidence: read.evidence }).valid, true);
  });

  it('an OCR-B read is its own evidence', () => {
    const read = judgeMrzRead(
      misprinted.map((l) => recognized(l)),
      'ocrb',
    );
    assert.equal(read.complete, false);
    assert.equal(read.evidence[1]?.[bColumn]?.probability, SURE.probability);
  });
});

describe('recognisers report the alternatives of each character', () => {
  it('alternativesFrom keeps what has at least 0.001, most probable first, without the character read', () => {
    const p = new Float64Array(MRZ_ALPHABET.length);
    p[MRZ_ALPHABET.indexOf('B')] = 0.9;
    p[MRZ_ALPHABET.indexOf('8')] = 0.08;
    p[MRZ_ALPHABET.indexOf('E')] = 0.0195;
    p[MRZ_ALPHABET.indexOf('3')] = 0.0005;
    assert.deepEqual(
      alternativesFrom(p, MRZ_ALPHABET.indexOf('B')).map((a) => a.character),
      ['8', 'E'],
    );
  });

  it("PaddleOCR's decoding keeps, per character, the most its alternatives had over the character's steps", () => {
    const classCount = MRZ_ALPHABET.length + 1;
    const classes = [...MRZ_ALPHABET].map((_, i) => [i + 1]);
    const at = (c: string) => MRZ_ALPHABET.indexOf(c) + 1;
    const p = new Float32Array(3 * classCount);
    p[at('0')] = 0.9;
    p[at('O')] = 0.1;
    p[classCount + at('0')] = 0.7;
    p[classCount + at('O')] = 0.3;
    p[2 * classCount] = 1; // blank
    const line = decodeMrzSteps(p, classCount, classes);
    assert.equal(line.text, '0');
    assert.equal(line.alternatives.length, 1);
    assert.equal(line.alternatives[0]?.[0]?.character, 'O');
    assert.ok(Math.abs((line.alternatives[0]?.[0]?.probability ?? 0) - 0.3) < 1e-6);
  });
});

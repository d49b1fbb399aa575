import assert from 'node:assert/strict';
import { before, describe, it, mock } from 'node:test';
import { CELL_HEIGHT, CELL_WIDTH, segmentLine } from '../../../../src/engines/document/ocrb-cells.js';
import {
  OcrbModelError,
  OcrbRecognizer,
  parseOcrbModel,
  type OcrbModel,
} from '../../../../src/engines/document/ocrb-recognizer.js';
import modelJson from '../../../../src/engines/document/ocrb-model.json' with { type: 'json' };
import { loadOpenCv } from '../../../../src/engines/document/opencv-runtime.js';
import { MRZ_ALPHABET, PaddleTextRecognizer } from '../../../../src/engines/document/paddle-text-recognizer.js';
import { readDocument, type DocumentModels } from '../../../../src/engines/document/read-document.js';
import { repairMrz } from '../../../../src/engines/document/mrz/repair-mrz.js';
import { photographPage, requireOcrBFont } from '../../../helpers/document-render.js';
import { composeMrz, SPECIMEN_TRUTH } from '../../../helpers/mrz-composer.js';

const TD3 = composeMrz('TD3', SPECIMEN_TRUTH);

/** A 48 px line of `count` glyph-like blocks at a known pitch and offset, white paper, dark ink. */
function blockLine(count: number, pitch: number, offset: number) {
  const width = Math.ceil(offset * 2 + count * pitch);
  const height = 48;
  const data = new Uint8Array(width * height).fill(230);
  for (let k = 0; k < count; k++) {
    // Glyphs of varying width, centred in their cells (OCR-B's fixed pitch).
    const glyph = pitch * (0.5 + 0.25 * ((k * 7) % 3) * 0.5);
    const x0 = Math.round(offset + k * pitch + (pitch - glyph) / 2);
    for (let y = 8; y < 40; y++) for (let x = x0; x < x0 + glyph; x++) data[y * width + x] = 20;
  }
  return { data, width, height };
}

describe('segmentLine', () => {
  it('finds a known pitch and offset and cuts one normalised cell per character', () => {
    const cut = segmentLine(blockLine(44, 30.5, 34), 44);
    assert.ok(cut);
    assert.equal(cut.cells.length, 44);
    assert.ok(Math.abs(cut.pitch - 30.5) < 0.4, `pitch ${cut.pitch}`);
    // Boundaries fall in the gaps: the offset within the first gap before the first glyph.
    assert.ok(Math.abs(cut.offset - 34) < 4, `offset ${cut.offset}`);
    assert.ok(cut.boundaryInk < 0.05, `boundary ink ${cut.boundaryInk}`);
    for (const cell of cut.cells) {
      assert.equal(cell.length, CELL_WIDTH * CELL_HEIGHT);
      // Centred block: ink in the middle column, paper at the cell's edges.
      assert.ok((cell[12 * CELL_WIDTH + 8] ?? 0) > 0.9);
      assert.ok((cell[12 * CELL_WIDTH] ?? 1) < 0.1);
    }
  });

  it('gives null for a blank line', () => {
    assert.equal(segmentLine({ data: new Uint8Array(1400 * 48).fill(200), width: 1400, height: 48 }, 44), null);
  });
});

describe('parseOcrbModel', () => {
  const shipped = parseOcrbModel(modelJson, 'ocrb-model.json');

  it('accepts the shipped model', () => {
    assert.equal(shipped.alphabet, MRZ_ALPHABET);
    assert.equal(shipped.w1.length, shipped.hidden * CELL_WIDTH * CELL_HEIGHT);
  });

  it('rejects a model of another alphabet, cell size, layer size or with a non-number weight', () => {
    const bad: Record<string, unknown>[] = [
      { ...shipped, alphabet: MRZ_ALPHABET.toLowerCase() },
      { ...shipped, cellWidth: 20 },
      { ...shipped, hidden: shipped.hidden + 1 },
      { ...shipped, b2: shipped.b2.slice(1) },
      { ...shipped, b1: shipped.b1.map((v, i) => (i === 0 ? Number.NaN : v)) },
      { ...shipped, w2: 'weights' },
    ];
    for (const model of bad) assert.throws(() => parseOcrbModel(model, 'test'), OcrbModelError);
    assert.throws(() => parseOcrbModel(null, 'test'), OcrbModelError);
  });
});

describe('the OCR-B recogniser in readDocument', () => {
  let models: DocumentModels;
  before(async () => {
    requireOcrBFont();
    models = { cv: await loadOpenCv(), recognizer: await PaddleTextRecognizer.load(), ocrb: OcrbRecognizer.load() };
  });

  it('reads a rendered OCR-B TD3 exactly on its own, and PaddleOCR is not run', async () => {
    const recognize = mock.method(models.recognizer, 'recognize');
    try {
      const jpeg = await photographPage('TD3', TD3, { rotate: 3, blur: 0.5, quality: 85 });
      const reading = await readDocument(models, jpeg);
      assert.deepEqual(reading.mrz?.lines, TD3);
      assert.equal(reading.mrz?.complete, true);
      assert.ok(Math.min(...(reading.mrz?.confidences.flat() ?? [0])) >= 0.5);
      assert.equal(recognize.mock.callCount(), 0);
    } finally {
      recognize.mock.restore();
    }
  });

  it('falls back to PaddleOCR when the OCR-B read fails', async () => {
    // A model with every weight 0 gives each class 1/37: never a plausible read.
    const blank: OcrbModel = {
      ...parseOcrbModel(modelJson, 'ocrb-model.json'),
      w1: [],
      b1: [],
      w2: [],
      b2: [],
    };
    const size = blank.hidden * CELL_WIDTH * CELL_HEIGHT;
    const zero: OcrbModel = {
      ...blank,
      w1: new Array<number>(size).fill(0),
      b1: new Array<number>(blank.hidden).fill(0),
      w2: new Array<number>(MRZ_ALPHABET.length * blank.hidden).fill(0),
      b2: new Array<number>(MRZ_ALPHABET.length).fill(0),
    };
    const recognize = mock.method(models.recognizer, 'recognize');
    try {
      const jpeg = await photographPage('TD3', TD3, {});
      const reading = await readDocument({ ...models, ocrb: OcrbRecognizer.fromModel(zero) }, jpeg);
      // PaddleOCR's raw read (it takes UTO's O for 0), repaired.
      assert.deepEqual(repairMrz(reading.mrz?.lines ?? []).lines, TD3);
      assert.ok(recognize.mock.callCount() >= 2);
    } finally {
      recognize.mock.restore();
    }
  });

  it('sends a read whose check digits hold but whose name has digits to PaddleOCR', async () => {
    // Our recogniser read ERIKSS0N<<4NNA on a 275 px-wide passport: every check digit valid, names unchecked.
    // With what it gave those two cells there: 0 at 0.957 (O 0.033), 4 at 0.948 (A 0.047).
    const misread = [TD3[0]?.replace('ERIKSSON<<ANNA', 'ERIKSS0N<<4NNA') ?? '', TD3[1] ?? ''];
    const unsure: Record<number, { p: number; alternative: string; q: number }> = {
      11: { p: 0.957, alternative: 'O', q: 0.033 },
      15: { p: 0.948, alternative: 'A', q: 0.047 },
    };
    const ocrb = OcrbRecognizer.load();
    let call = 0;
    const ocrbRead = mock.method(ocrb, 'recognize', () => {
      const line = call++ % 2;
      const cell = (i: number) => (line === 0 ? unsure[i] : undefined);
      return {
        text: misread[line] ?? '',
        confidences: Array.from({ length: 44 }, (_, i) => cell(i)?.p ?? 0.99),
        alternatives: Array.from({ length: 44 }, (_, i) => {
          const c = cell(i);
          return c ? [{ character: c.alternative, probability: c.q }] : [];
        }),
      };
    });
    const recognize = mock.method(models.recognizer, 'recognize');
    try {
      const reading = await readDocument({ ...models, ocrb }, await photographPage('TD3', TD3, {}));
      assert.ok(ocrbRead.mock.callCount() >= 2);
      assert.ok(recognize.mock.callCount() >= 2);
      assert.deepEqual(repairMrz(reading.mrz?.lines ?? []).lines, TD3);
    } finally {
      recognize.mock.restore();
    }
  });

  it('keeps its exact read of a document printed with a wrong check digit, which stays invalid', async () => {
    const printed = [
      TD3[0] ?? '',
      `${(TD3[1] ?? '').slice(0, 9)}${(Number((TD3[1] ?? '')[9]) + 1) % 10}${(TD3[1] ?? '').slice(10)}`,
    ];
    const reading = await readDocument(models, await photographPage('TD3', printed, { rotate: 3, blur: 0.5 }));
    assert.deepEqual(reading.mrz?.lines, printed);
    assert.equal(reading.mrz?.complete, false);
    assert.equal(repairMrz(reading.mrz?.lines ?? []).valid, false);
  });
});

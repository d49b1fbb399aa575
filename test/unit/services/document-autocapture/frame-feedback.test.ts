import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Quad } from '../../../../src/engines/document/document-geometry.js';
import { checkOf } from '../../../../src/engines/document/quality/check-value.js';
import type { PageQuality } from '../../../../src/engines/document/quality/page-quality.js';
import type { DocumentReading } from '../../../../src/engines/document/read-document.js';
import { repairMrz } from '../../../../src/engines/document/mrz/repair-mrz.js';
import { documentKind } from '../../../../src/services/document-autocapture/document-kinds.js';
import { frameFeedback } from '../../../../src/services/document-autocapture/frame-feedback.js';

const notPerformed = checkOf(null, '', '<=', 0);
const QUALITY: PageQuality = {
  glare: notPerformed,
  blur: notPerformed,
  resolution: notPerformed,
  color: checkOf(60, 'colourfulness', '>=', 10),
  perspective: notPerformed,
  bounds: notPerformed,
};
const STAGES = { decodeMs: 0, locateMs: 0, ocrMs: 0, pageMs: 0, qualityMs: 0, totalMs: 0 };

/** A 1280×720 frame in which no MRZ band was found, with a page outline `width` × `width / aspect` px or none. */
function noBand(width: number | null, aspect = 125 / 88): DocumentReading {
  let outline: Quad | null = null;
  if (width !== null) {
    const h = width / aspect;
    outline = [
      { x: 600, y: 300 },
      { x: 600 + width, y: 300 },
      { x: 600 + width, y: 300 + h },
      { x: 600, y: 300 + h },
    ];
  }
  return {
    width: 1280,
    height: 720,
    band: null,
    mrz: null,
    page: null,
    outline,
    quality: QUALITY,
    timings: { ...STAGES, cpu: STAGES },
  };
}

describe('frameFeedback without an MRZ', () => {
  const passport = documentKind({ documentType: 'PASSPORT' });
  const card = documentKind({ documentType: 'DRIVERS_LICENSE' });

  // A passport across 17 % of a 1280 px frame (1.7 px/mm) is plainly in view, but its MRZ is too small for
  // the band to be located: "not found" told the user nothing; TOO_FAR tells them to come closer.
  it('is TOO_FAR when a page outline too small for its MRZ to read is in view', () => {
    assert.equal(frameFeedback(passport, noBand(218), null), 'TOO_FAR');
    assert.equal(frameFeedback(card, noBand(166, 85.6 / 54), null), 'TOO_FAR');
  });

  it('stays DOCUMENT_NOT_FOUND without an outline, or with one large enough to read (no MRZ on it)', () => {
    assert.equal(frameFeedback(passport, noBand(null), null), 'DOCUMENT_NOT_FOUND');
    assert.equal(frameFeedback(passport, noBand(900), null), 'DOCUMENT_NOT_FOUND');
    assert.equal(frameFeedback(card, noBand(700, 85.6 / 54), null), 'DOCUMENT_NOT_FOUND');
  });
});

describe('frameFeedback with a blurred MRZ read', () => {
  const passport = documentKind({ documentType: 'PASSPORT' });
  // What the engine read on a generated passport frame blurred by 5 px (eval/document-autocapture-sequences.ts):
  // two lines of 34 characters, taken for a TD2 (ID-2) page, far from valid.
  const lines = ['1688165866888186666664666666666664', '8999823818768122938981842268666666'];
  const quad: Quad = [
    { x: 200, y: 100 },
    { x: 1080, y: 100 },
    { x: 1080, y: 720 },
    { x: 200, y: 720 },
  ];
  const blurred = (blur: 'PASS' | 'FAIL'): DocumentReading => ({
    ...noBand(null),
    // frameFeedback judges the parsed MRZ it is given, not the raw read.
    mrz: null,
    page: { layout: 'TD2', size: 'ID-2', quad, contourAgreed: false, jpeg: new Uint8Array(), width: 1000, height: 705 },
    quality: {
      ...QUALITY,
      blur: checkOf(blur === 'FAIL' ? 0.063 : 0.2, '1/px', '>=', 0.13),
      resolution: checkOf(22, 'px', '>=', 7),
      perspective: checkOf(0.01, 'ratio', '<=', 0.06),
      bounds: checkOf(0, 'share of diagonal', '<=', 0.03),
      glare: checkOf(0, 'share', '<=', 0.03),
    },
  });

  // Its class came from a garbage read: WRONG_DOCUMENT sent the user looking for another document.
  it('is TOO_BLURRY, not WRONG_DOCUMENT, when the read is not valid and the band is blurred', () => {
    const mrz = repairMrz(lines);
    assert.equal(mrz.valid, false);
    assert.equal(frameFeedback(passport, blurred('FAIL'), mrz), 'TOO_BLURRY');
  });

  it('is still WRONG_DOCUMENT for a sharp page of another class, even with an invalid MRZ', () => {
    assert.equal(frameFeedback(passport, blurred('PASS'), repairMrz(lines)), 'WRONG_DOCUMENT');
  });
});

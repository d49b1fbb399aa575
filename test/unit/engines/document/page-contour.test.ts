import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { distance, type Quad } from '../../../../src/engines/document/document-geometry.js';
import type { MrzBand } from '../../../../src/engines/document/mrz-band-locator.js';
import { OcrbRecognizer } from '../../../../src/engines/document/ocrb-recognizer.js';
import { loadOpenCv } from '../../../../src/engines/document/opencv-runtime.js';
import { orientBand } from '../../../../src/engines/document/oriented-band.js';
import { agreeingPageQuad } from '../../../../src/engines/document/page-contour.js';
import { pageQuadFromBand } from '../../../../src/engines/document/page-geometry.js';
import { PaddleTextRecognizer } from '../../../../src/engines/document/paddle-text-recognizer.js';
import { readDocument, type DocumentModels } from '../../../../src/engines/document/read-document.js';
import { requireOcrBFont, type RenderedLayout } from '../../../helpers/document-render.js';
import { documentScene, placedCorners, type Placement, type SceneOptions } from '../../../helpers/document-scene.js';
import { composeMrz, SPECIMEN_TRUTH } from '../../../helpers/mrz-composer.js';

let models: DocumentModels;

const ASPECT = { TD1: 85.6 / 54, TD3: 125 / 88, TD2: 105 / 74 } as const;

/** A page placed in a 1280×720 frame, photographed and read; the corners it was placed on come back too. */
async function readScene(
  layout: RenderedLayout,
  placement: Omit<Placement, 'aspect'>,
  scene: Omit<SceneOptions, 'corners'> = {},
) {
  const corners = placedCorners({ ...placement, aspect: ASPECT[layout] });
  const mrz = composeMrz(layout, { ...SPECIMEN_TRUTH, documentCode: layout === 'TD1' ? 'I' : 'P' });
  const reading = await readDocument(models, await documentScene(layout, mrz, { ...scene, corners }));
  return { corners, reading };
}

const worstCornerError = (a: Quad, b: Quad) => Math.max(...a.map((p, i) => distance(p, b[i] ?? p)));

describe('page geometry: contours as a second opinion', () => {
  before(async () => {
    requireOcrBFont();
    models = { cv: await loadOpenCv(), recognizer: await PaddleTextRecognizer.load(), ocrb: OcrbRecognizer.load() };
  });

  it('takes the corners of a page in perspective on a contrasting desk, within a few pixels', async () => {
    const { corners, reading } = await readScene(
      'TD3',
      { cx: 640, cy: 370, width: 760, rotate: 4, tilt: 0.08 },
      { background: { r: 30, g: 90, b: 40 } },
    );
    assert.ok(reading.page && reading.band);
    assert.equal(reading.page.contourAgreed, true);
    assert.ok(worstCornerError(reading.page.quad, corners) < 5, JSON.stringify(reading.page.quad));
    // The MRZ-anchored page has no keystone: its top corners miss the tilted page's by far more.
    const anchored = pageQuadFromBand(reading.band, reading.page.layout);
    assert.ok(worstCornerError(anchored, corners) > 15);
    // The crop keeps the ID-3 page's aspect ratio, not the foreshortened outline's.
    assert.equal(reading.page.width, 1000);
    assert.ok(Math.abs(reading.page.height - 1000 / ASPECT.TD3) < 3);
  });

  it('puts the corners of an upside-down card turned about its vertical axis in reading order', async () => {
    const { corners, reading } = await readScene('TD1', { cx: 620, cy: 360, width: 820, rotate: 183, turn: 0.07 });
    assert.ok(reading.page);
    assert.equal(reading.page.contourAgreed, true);
    // Reading order of the upright page: placedCorners' own order, turned with the page.
    assert.ok(worstCornerError(reading.page.quad, corners) < 5, JSON.stringify(reading.page.quad));
  });

  it('keeps the MRZ-anchored page when no outline agrees (page edges lost in a cluttered desk)', async () => {
    const { reading } = await readScene(
      'TD3',
      { cx: 640, cy: 370, width: 760, rotate: 4, tilt: 0.08 },
      { background: 'clutter' },
    );
    assert.ok(reading.page && reading.band);
    assert.equal(reading.page.contourAgreed, false);
    assert.deepEqual(reading.page.quad, pageQuadFromBand(reading.band, reading.page.layout));
  });

  it('takes no outline from a page cut by the frame, so bounds still fails', async () => {
    const { reading } = await readScene('TD3', { cx: 640, cy: 280, width: 1000, rotate: 2 });
    assert.ok(reading.page);
    assert.equal(reading.page.contourAgreed, false);
    assert.equal(reading.quality.bounds.result, 'FAIL');
  });

  it('outlines a card too far away for its MRZ to be found, and nothing on an empty desk', async () => {
    const { reading } = await readScene('TD1', { cx: 600, cy: 380, width: 166, rotate: -2 });
    assert.equal(reading.mrz, null);
    assert.ok(reading.outline, 'the card is outlined');
    const [a, b, c, d] = reading.outline;
    const width = Math.max(distance(a, b) + distance(c, d), distance(b, c) + distance(d, a)) / 2;
    assert.ok(Math.abs(width - 166) < 6, `outline ${width} px wide`);
    const empty = await readScene('TD1', { cx: -5000, cy: 380, width: 166 });
    assert.equal(empty.reading.outline, null);
  });

  it('outlines no flat object: a desk strewn with card-shaped boxes has no page', async () => {
    // Seed 2 holds a grey box of a card's shape, 120 px wide (TOO_FAR before outlines had to hold print).
    const { reading } = await readScene('TD1', { cx: -5000, cy: 380, width: 166 }, { background: 'clutter', seed: 2 });
    assert.equal(reading.band, null);
    assert.equal(reading.outline, null);
  });

  it('fails perspective for a page tilted back, which the band barely shows', async () => {
    const { reading } = await readScene('TD3', { cx: 640, cy: 370, width: 840, tilt: 0.25 });
    assert.ok(reading.page?.contourAgreed);
    assert.equal(reading.quality.perspective.result, 'FAIL');
    assert.ok(Math.abs((reading.quality.perspective.value ?? 0) - 0.25) < 0.03);
  });
});

describe('agreeingPageQuad', () => {
  // An upright TD3 band: 600 px lines at y 400 and 440, so the page is ~673 × 473 with its bottom ~54 px below.
  const located: MrzBand = {
    lines: [
      { start: { x: 100, y: 400 }, end: { x: 700, y: 400 }, thickness: 20 },
      { start: { x: 100, y: 440 }, end: { x: 700, y: 440 }, thickness: 20 },
    ],
    quad: [
      { x: 100, y: 390 },
      { x: 700, y: 390 },
      { x: 700, y: 450 },
      { x: 100, y: 450 },
    ],
    angle: 0,
    lineHeight: 20,
    score: 2,
  };
  const band = orientBand(located, false);
  const anchored = pageQuadFromBand(band, 'TD3');
  const shifted = (q: Quad, dx: number, dy: number): Quad => [
    { x: q[0].x + dx, y: q[0].y + dy },
    { x: q[1].x + dx, y: q[1].y + dy },
    { x: q[2].x + dx, y: q[2].y + dy },
    { x: q[3].x + dx, y: q[3].y + dy },
  ];

  it('accepts an outline at the MRZ page, whatever corner it starts from and its winding', () => {
    const outline: Quad = [anchored[2], anchored[1], anchored[0], anchored[3]];
    const agreed = agreeingPageQuad([outline], band, 'TD3', anchored);
    assert.ok(agreed);
    assert.ok(worstCornerError(agreed, anchored) < 1e-9);
  });

  it('refuses an outline whose bottom edge is far from the MRZ, or of another aspect, or skewed', () => {
    assert.equal(agreeingPageQuad([shifted(anchored, 0, 60)], band, 'TD3', anchored), null);
    assert.equal(agreeingPageQuad([shifted(anchored, 80, 0)], band, 'TD3', anchored), null);
    const [tl, tr, br, bl] = anchored;
    const square: Quad = [{ x: tl.x, y: bl.y - (tr.x - tl.x) }, { x: tr.x, y: bl.y - (tr.x - tl.x) }, br, bl];
    assert.equal(agreeingPageQuad([square], band, 'TD3', anchored), null);
    const skewed: Quad = [tl, tr, { x: br.x, y: br.y + 80 }, bl];
    assert.equal(agreeingPageQuad([skewed], band, 'TD3', anchored), null);
    // The photo block of the page: a quad the band is not inside.
    const photo: Quad = [
      { x: 120, y: 60 },
      { x: 300, y: 60 },
      { x: 300, y: 300 },
      { x: 120, y: 300 },
    ];
    assert.equal(agreeingPageQuad([photo], band, 'TD3', anchored), null);
  });
});

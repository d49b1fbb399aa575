import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MrzBand } from '../../../../src/engines/document/mrz-band-locator.js';
import { locateMrzBands } from '../../../../src/engines/document/mrz-band-locator.js';
import { loadOpenCv } from '../../../../src/engines/document/opencv-runtime.js';
import { orientBand } from '../../../../src/engines/document/oriented-band.js';
import { pageQuadFromBand } from '../../../../src/engines/document/page-geometry.js';
import { outsideShare } from '../../../../src/engines/document/quality/bounds.js';
import { checkOf } from '../../../../src/engines/document/quality/check-value.js';
import { edgeSharpness } from '../../../../src/engines/document/quality/blur.js';
import { colorfulness } from '../../../../src/engines/document/quality/color.js';
import { glareShare } from '../../../../src/engines/document/quality/glare.js';
import { keystone, skewDegrees } from '../../../../src/engines/document/quality/perspective.js';

/** A located two-line band: lines from x 100 to 700 at y 400 and 440 (the second `shrink` shorter). */
function band(shrink = 0, converge = 0): MrzBand {
  const lines = [
    { start: { x: 100, y: 400 }, end: { x: 700, y: 400 }, thickness: 20 },
    { start: { x: 100 + shrink, y: 440 }, end: { x: 700 - shrink, y: 440 + converge }, thickness: 20 },
  ];
  return {
    lines,
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
}

describe('MRZ band location', () => {
  it('leaves no process handlers of the Emscripten runtime behind', async () => {
    const before = process.listenerCount('unhandledRejection') + process.listenerCount('uncaughtException');
    await loadOpenCv();
    assert.equal(process.listenerCount('unhandledRejection') + process.listenerCount('uncaughtException'), before);
  });

  it('finds nothing on a blank page or on noise', async () => {
    const cv = await loadOpenCv();
    const blank = { data: new Uint8Array(640 * 480).fill(230), width: 640, height: 480 };
    assert.deepEqual(locateMrzBands(cv, blank), []);
    let seed = 7;
    const noise = Uint8Array.from({ length: 640 * 480 }, () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24);
    assert.deepEqual(locateMrzBands(cv, { data: noise, width: 640, height: 480 }), []);
  });
});

describe('document geometry', () => {
  it('orients a band both ways: reversed, the last line is read first, right to left', () => {
    const upright = orientBand(band(), false);
    assert.deepEqual(upright.lines[0]?.start, { x: 100, y: 400 });
    const turned = orientBand(band(), true);
    assert.deepEqual(turned.lines[0]?.start, { x: 700, y: 440 });
    assert.deepEqual(turned.lines[1]?.end, { x: 100, y: 400 });
  });

  it('gives every oriented line the band extent, so a broken line still covers its characters', () => {
    const whole = band();
    const [first, second] = whole.lines;
    assert.ok(first && second);
    const partial: MrzBand = { ...whole, lines: [first, { ...second, start: { x: 400, y: 440 } }] };
    const oriented = orientBand(partial, false);
    assert.equal(oriented.lines[1]?.start.x, 100);
  });

  it('places a TD3 page around its band: wider than the band, above it, the band near the bottom edge', () => {
    const [tl, tr, br, bl] = pageQuadFromBand(orientBand(band(), false), 'TD3');
    // 600 px of MRZ: a page about 672 px wide and 473 high, its bottom edge about 54 px below the last line.
    assert.ok(tr.x - tl.x > 650 && tr.x - tl.x < 690);
    assert.ok(bl.y - tl.y > 450 && bl.y - tl.y < 490);
    assert.ok(bl.y > 480 && bl.y < 510);
    assert.ok(tl.x < 100 && tr.x > 700);
    assert.equal(br.y, bl.y);
  });
});

describe('document quality measures', () => {
  it('turns a value and a threshold into PASS, FAIL or NOT_PERFORMED', () => {
    assert.equal(checkOf(12, 'px', '>=', 7).result, 'PASS');
    assert.equal(checkOf(6, 'px', '>=', 7).result, 'FAIL');
    assert.equal(checkOf(0.1, 'ratio', '<=', 0.06).result, 'FAIL');
    assert.equal(checkOf(null, 'px', '>=', 7).result, 'NOT_PERFORMED');
  });

  it('measures how far a page quad leaves the frame', () => {
    const quad = [
      { x: 10, y: 10 },
      { x: 110, y: 10 },
      { x: 110, y: 80 },
      { x: 10, y: 80 },
    ] as const;
    assert.equal(outsideShare(quad, 200, 100), 0);
    assert.ok(outsideShare(quad, 100, 100) > 0.05);
  });

  it('tells a colour page from a grayscale one', () => {
    const gray = { data: new Uint8Array(64 * 64 * 3).fill(128), width: 64, height: 64 };
    const colour = {
      data: Uint8Array.from({ length: 64 * 64 * 3 }, (_, i) => (i % 3 === 0 ? 200 : 90)),
      width: 64,
      height: 64,
    };
    assert.equal(colorfulness(gray), 0);
    assert.equal(colorfulness(colour), 110);
  });

  it('sees keystone in converging or unequal lines, not in parallel ones', () => {
    assert.ok(keystone(band()) < 0.001);
    assert.ok(keystone(band(0, 8)) > 0.15);
    assert.ok(keystone(band(30)) > 0.09);
    assert.equal(skewDegrees({ ...band(), angle: 93 }), 3);
  });

  // The measures count histograms instead of sorting every pixel (speed); these references sort.
  it('measures edge sharpness as the sorted percentiles would', () => {
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
    const sorted = (values: number[], q: number) =>
      Float64Array.from(values).sort()[Math.min(values.length - 1, Math.floor(q * values.length))] ?? 0;
    for (let round = 0; round < 5; round++) {
      const lines = [0, 1].map(() => ({
        data: Uint8Array.from({ length: 300 * 48 }, () => (round === 0 ? next() % 6 : next())),
        width: 300,
        height: 48,
      }));
      const gradients: number[] = [];
      const values: number[] = [];
      for (const { data, width, height } of lines) {
        for (let y = 1; y < height - 1; y++) {
          for (let x = 1; x < width - 1; x++) {
            const i = y * width + x;
            gradients.push(
              Math.hypot(
                ((data[i + 1] ?? 0) - (data[i - 1] ?? 0)) / 2,
                ((data[i + width] ?? 0) - (data[i - width] ?? 0)) / 2,
              ),
            );
            values.push(data[i] ?? 0);
          }
        }
      }
      const range = sorted(values, 0.98) - sorted(values, 0.02);
      const expected = range < 8 ? 0 : sorted(gradients, 0.95) / range;
      assert.ok(Math.abs((edgeSharpness(lines) ?? NaN) - expected) < 1e-12, `round ${round}`);
    }
  });

  it('counts glare cells at least 90 % clipped on a page darker than white paper', () => {
    const width = 64;
    const height = 32;
    const data = new Uint8Array(width * height * 3).fill(180);
    // Left 8×8 cell: 58 of 64 pixels clipped (glare); the next one 57 (not).
    for (const [cell, clipped] of [
      [0, 58],
      [1, 57],
    ] as const) {
      for (let k = 0; k < clipped; k++) {
        const x = cell * 8 + (k % 8);
        const y = Math.floor(k / 8);
        data.fill(250, 3 * (y * width + x), 3 * (y * width + x) + 3);
      }
    }
    assert.equal(glareShare({ data, width, height }), 1 / 32);
    assert.equal(glareShare({ data: new Uint8Array(width * height * 3).fill(240), width, height }), 0);
  });
});

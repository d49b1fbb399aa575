import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadPadModel, padScore, scoreWith } from '../../../../src/engines/liveness/pad-classifier.js';
import { fitLogistic, trainPadWeights } from '../../../../eval/pad-training.js';
import {
  analyzeCrop,
  cropSharpness,
  padFeatureGroups,
  padFeatures,
  PAD_CROP_SIZE,
  PAD_FEATURE_NAMES,
  type PadFace,
} from '../../../../src/engines/liveness/pad-features.js';
import type { RgbImage } from '../../../../src/engines/face/raster.js';
import { seededRandom } from '../../../../src/lib/seeded-random.js';

const SIZE = PAD_CROP_SIZE;

/**
 * LBP^riu2 as Ojala et al. define it, pixel by pixel: 8 neighbours on a circle of `radius` (offsets rounded to
 * 1e-9, as pad-features.ts rounds them), read bilinearly, bit set where neighbour ≥ centre; a uniform pattern
 * (≤ 2 transitions) counts in the bin of its ones, the others in bin 9; normalised to sum 1.
 */
function referenceLbp(plane: Float64Array, radius: number): Float64Array {
  const round = (v: number) => Math.round(v * 1e9) / 1e9;
  const read = (x: number, y: number): number => {
    const x0 = Math.floor(x);
    const y0 = Math.floor(y);
    const fx = x - x0;
    const fy = y - y0;
    const at = (cx: number, cy: number) =>
      plane[Math.min(SIZE - 1, Math.max(0, cy)) * SIZE + Math.min(SIZE - 1, Math.max(0, cx))]!;
    if (fx === 0 && fy === 0) return at(x0, y0);
    const top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
    const bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
    return top * (1 - fy) + bottom * fy;
  };
  const histogram = new Float64Array(10);
  const margin = Math.ceil(radius);
  for (let y = margin; y < SIZE - margin; y++) {
    for (let x = margin; x < SIZE - margin; x++) {
      const centre = plane[y * SIZE + x]!;
      const bits = Array.from({ length: 8 }, (_, p) => {
        const angle = (2 * Math.PI * p) / 8;
        return read(x + round(radius * Math.cos(angle)), y + round(-radius * Math.sin(angle))) >= centre ? 1 : 0;
      });
      const ones = bits.reduce<number>((s, b) => s + b, 0);
      const transitions = bits.filter((b, p) => b !== bits[(p + 1) % 8]).length;
      histogram[transitions <= 2 ? ones : 9]! += 1;
    }
  }
  return histogram.map((v) => v / (SIZE - 2 * margin) ** 2);
}

/** A skin-toned crop with a smooth shading and fine random texture of the given amplitude. */
function texturedCrop(seed: number, textureAmplitude: number): Float32Array {
  const next = seededRandom(seed);
  const crop = new Float32Array(SIZE * SIZE * 3);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const shade = 40 * Math.exp(-((x - 64) ** 2 + (y - 60) ** 2) / 2000);
      const grain = textureAmplitude * (next() - 0.5);
      const o = (y * SIZE + x) * 3;
      crop[o] = 150 + shade + grain;
      crop[o + 1] = 110 + shade * 0.8 + grain * 0.9;
      crop[o + 2] = 90 + shade * 0.7 + grain * 0.8;
    }
  }
  return crop;
}

/** Separable box blur of radius 1, applied `passes` times (edges repeated). */
function blur(crop: Float32Array, passes: number): Float32Array {
  let current = crop;
  for (let pass = 0; pass < passes; pass++) {
    const out = new Float32Array(current.length);
    for (let y = 0; y < SIZE; y++) {
      for (let x = 0; x < SIZE; x++) {
        for (let c = 0; c < 3; c++) {
          let sum = 0;
          for (let dy = -1; dy <= 1; dy++) {
            for (let dx = -1; dx <= 1; dx++) {
              const xx = Math.min(SIZE - 1, Math.max(0, x + dx));
              const yy = Math.min(SIZE - 1, Math.max(0, y + dy));
              sum += current[(yy * SIZE + xx) * 3 + c]!;
            }
          }
          out[(y * SIZE + x) * 3 + c] = sum / 9;
        }
      }
    }
    current = out;
  }
  return current;
}

/** A 256×256 image with the textured crop's pattern and a face whose key points put it in the middle. */
function syntheticImage(seed: number): { image: RgbImage; face: PadFace } {
  const next = seededRandom(seed);
  const width = 256;
  const height = 256;
  const data = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) {
    const grain = 30 * (next() - 0.5);
    data[i * 3] = 160 + grain;
    data[i * 3 + 1] = 120 + grain;
    data[i * 3 + 2] = 100 + grain;
  }
  // Eye-to-mouth 44 px: the crop is at about one image pixel per crop pixel.
  return {
    image: { data, width, height },
    face: { box: [70, 60, 116, 140], keyPoints: { rightEye: [106, 110], leftEye: [150, 110], mouth: [128, 154] } },
  };
}

describe('PAD features', () => {
  it('gives a finite vector of the named length, the same every time', () => {
    const { image, face } = syntheticImage(1);
    const a = padFeatures(image, face);
    assert.equal(a.length, PAD_FEATURE_NAMES.length);
    assert.ok(a.every(Number.isFinite));
    assert.deepEqual(padFeatures(image, face), a);
    const groups = padFeatureGroups();
    assert.deepEqual([...groups.keys()], ['lbpLuma', 'lbpChroma', 'frequency', 'sharpness', 'colour', 'specular']);
    // Each LBP histogram sums to 1.
    const lbp = [...groups.get('lbpLuma')!, ...groups.get('lbpChroma')!];
    for (let h = 0; h < lbp.length; h += 10) {
      const sum = lbp.slice(h, h + 10).reduce((s, j) => s + a[j]!, 0);
      assert.ok(Math.abs(sum - 1) < 1e-5, `histogram ${h / 10} sums to ${sum}`);
    }
  });

  it('counts the luma LBP patterns exactly as the per-pixel definition reads them, ties included', () => {
    // Whole levels and a flat band: many neighbours equal their centre, where a rounding slip would flip a bit.
    const crop = texturedCrop(7, 12).map((v, i) => (Math.floor(i / (3 * SIZE)) < 20 ? 120 : Math.round(v)));
    const luma = Float64Array.from({ length: SIZE * SIZE }, (_, i) => {
      const [r, g, b] = [crop[i * 3]!, crop[i * 3 + 1]!, crop[i * 3 + 2]!];
      return 0.299 * r + 0.587 * g + 0.114 * b;
    });
    const features = analyzeCrop(crop, SIZE).features;
    for (const [radius, name] of [
      [1, 'lbpLuma.r1'],
      [2, 'lbpLuma.r2'],
    ] as const) {
      const first = PAD_FEATURE_NAMES.indexOf(`${name}.u0`);
      const expected = referenceLbp(luma, radius).map((v) => Math.fround(v));
      assert.deepEqual([...features.slice(first, first + 10)], [...expected], name);
    }
  });

  it('falls back to the box when the key points are degenerate', () => {
    const { image, face } = syntheticImage(2);
    const features = padFeatures(image, {
      ...face,
      keyPoints: { rightEye: [128, 128], leftEye: [128, 128], mouth: [128, 128] },
    });
    assert.equal(features.length, PAD_FEATURE_NAMES.length);
    assert.ok(features.every(Number.isFinite));
  });

  it('measures less high-frequency energy and sharpness on the same crop blurred', () => {
    const sharp = analyzeCrop(texturedCrop(3, 60), SIZE).signals;
    const blurred = analyzeCrop(blur(texturedCrop(3, 60), 2), SIZE).signals;
    assert.ok(
      sharp.highFrequencyEnergy > 3 * blurred.highFrequencyEnergy,
      `${sharp.highFrequencyEnergy} vs ${blurred.highFrequencyEnergy}`,
    );
    assert.ok(sharp.sharpness > blurred.sharpness + 0.5, `${sharp.sharpness} vs ${blurred.sharpness}`);
  });

  it('raises the moiré score when a periodic grating is added', () => {
    const base = blur(texturedCrop(4, 40), 1);
    const grated = Float32Array.from(base);
    for (let y = 0; y < SIZE; y++) {
      for (let x = 0; x < SIZE; x++) {
        // A pixel-grid-like grating at (0.3, 0.17) cycles per pixel, as a screen's beat pattern would leave.
        const g = 12 * Math.sin(2 * Math.PI * (0.3 * x + 0.17 * y));
        for (let c = 0; c < 3; c++) grated[(y * SIZE + x) * 3 + c] = grated[(y * SIZE + x) * 3 + c]! + g;
      }
    }
    const before = analyzeCrop(base, SIZE).signals;
    const after = analyzeCrop(grated, SIZE).signals;
    assert.ok(after.moire > before.moire + 1, `moiré ${before.moire} → ${after.moire}`);
  });

  it('refuses a crop that is not size×size×3 with a power-of-two size', () => {
    assert.throws(() => analyzeCrop(new Float32Array(100 * 100 * 3), 100), RangeError);
    assert.throws(() => analyzeCrop(new Float32Array(10), SIZE), RangeError);
    assert.throws(() => cropSharpness(new Float32Array(100 * 100 * 3), 100), RangeError);
  });

  it('measures the sharpness alone as the full analysis does, to the bit', () => {
    for (const crop of [texturedCrop(3, 60), blur(texturedCrop(3, 60), 2), blur(texturedCrop(7, 25), 1)])
      assert.equal(cropSharpness(crop, SIZE), analyzeCrop(crop, SIZE).signals.sharpness);
    const small = texturedCrop(5, 40).subarray(0, 32 * 32 * 3);
    assert.equal(cropSharpness(small, 32), analyzeCrop(small, 32).signals.sharpness);
  });
});

describe('PAD classifier', () => {
  it('recovers a separable synthetic problem with logistic regression', () => {
    const next = seededRandom(5);
    const gaussian = (): number => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
    const make = (n: number): { x: number[][]; y: number[] } => {
      const x: number[][] = [];
      const y: number[] = [];
      for (let i = 0; i < n; i++) {
        const label = i % 2;
        // Five features on very different scales; the classes differ along a mix of the first three.
        x.push([
          (label ? 1.5 : -1.5) + gaussian(),
          100 * ((label ? 1 : -1) + gaussian()),
          0.01 * ((label ? -1 : 1) + gaussian()),
          gaussian(),
          50 + 1000 * gaussian(),
        ]);
        y.push(label);
      }
      return { x, y };
    };
    const train = make(400);
    const test = make(400);
    const weights = trainPadWeights(train.x, train.y, 1);
    assert.ok(weights.converged);
    const scores = test.x.map((row) => scoreWith(weights, row));
    assert.ok(scores.every((p) => p >= 0 && p <= 1));
    const accuracy = scores.filter((p, i) => (p >= 0.5 ? 1 : 0) === test.y[i]).length / test.x.length;
    assert.ok(accuracy > 0.95, `accuracy ${accuracy}`);
  });

  it('fits by Newton to a zero gradient of the penalised likelihood', () => {
    const x = [[-2], [-1], [-0.5], [0.5], [1], [2], [0.2], [-0.2]];
    const y = [0, 0, 1, 0, 1, 1, 0, 1];
    const l2 = 0.5;
    const fit = fitLogistic(x, y, { l2 });
    assert.ok(fit.converged && fit.iterations < 20);
    let gw = l2 * fit.weights[0]!;
    let gb = 0;
    x.forEach((row, i) => {
      const p = 1 / (1 + Math.exp(-(fit.bias + fit.weights[0]! * row[0]!)));
      gw += (p - y[i]!) * row[0]!;
      gb += p - y[i]!;
    });
    assert.ok(Math.abs(gw) < 1e-8 && Math.abs(gb) < 1e-8, `gradient ${gw}, ${gb}`);
  });

  it('loads the shipped model, whose features match padFeatures, and scores in 0..1', () => {
    const model = loadPadModel();
    const { image, face } = syntheticImage(6);
    const features = padFeatures(image, face);
    assert.equal(model.featureNames.length, features.length);
    assert.deepEqual(model.featureNames, PAD_FEATURE_NAMES);
    assert.ok(model.provenance.trainingPersons.length > 0);
    const p = padScore(features);
    assert.ok(p >= 0 && p <= 1, `P(live) ${p}`);
    assert.throws(() => padScore(features.slice(1)), RangeError);
  });
});

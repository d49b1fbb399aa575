/**
 * `npm run eval -- train-ocrb [--pages N] [--seed S] [--hidden H] [--epochs E]`
 *
 * Trains the OCR-B cell classifier (src/engines/document/ocrb-recognizer.ts) and writes
 * src/engines/document/ocrb-model.json. Training cells come through the reader's own path: random MRZ-like
 * lines are rendered in the real OCR-B typeface (Debian fonts-ocr-b, test/helpers/document-render.ts) on a
 * page, photographed (scale 3–9 px/mm, turned ±5°, blur 0–1.4 px, JPEG 35–95, colour or grey), the band is
 * located and its lines cut as readDocument cuts them (mrz-band-locator.ts, mrz-line-images.ts), then each
 * line gets noise and contrast changes and is segmented with segmentLine (ocrb-cells.ts), so the cells carry
 * the segmentation's own jitter. A sixth of the pages is held out and its cell accuracy printed.
 * Deterministic for a seed.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { decodeDocumentImage } from '../src/engines/document/document-image.js';
import { grayOf, type GrayImage } from '../src/engines/document/gray-image.js';
import {
  DEFAULT_BAND_LOCATOR_OPTIONS,
  locateMrzBandsInPass,
  locatorPasses,
  rankBands,
} from '../src/engines/document/mrz-band-locator.js';
import { mrzLineImages } from '../src/engines/document/mrz-line-images.js';
import { CELL_HEIGHT, CELL_WIDTH, segmentLine } from '../src/engines/document/ocrb-cells.js';
import { loadOpenCv, type OpenCv } from '../src/engines/document/opencv-runtime.js';
import { orientBand } from '../src/engines/document/oriented-band.js';
import { MRZ_ALPHABET } from '../src/engines/document/paddle-text-recognizer.js';
import { seededRandom } from '../src/lib/seeded-random.js';
import { OCR_B_FONT_FILE, photographPage, type RenderedLayout } from '../test/helpers/document-render.js';

const MODEL_FILE = 'src/engines/document/ocrb-model.json';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';

/** A line of MRZ-like runs: names, filler runs, digit fields and alphanumeric document numbers. */
function randomLine(random: () => number, length: number): string {
  const pick = (set: string) => set[Math.floor(random() * set.length)] ?? '<';
  let line = '';
  while (line.length < length) {
    const kind = random();
    const run = 1 + Math.floor(random() * 9);
    for (let i = 0; i < run; i++) {
      if (kind < 0.35) line += pick(LETTERS);
      else if (kind < 0.6) line += pick(DIGITS);
      else if (kind < 0.8) line += pick(LETTERS + DIGITS);
      else line += '<';
    }
  }
  return line.slice(0, length);
}

const LAYOUTS: readonly { layout: RenderedLayout; lines: number; length: number }[] = [
  { layout: 'TD3', lines: 2, length: 44 },
  { layout: 'TD2', lines: 2, length: 36 },
  { layout: 'TD1', lines: 3, length: 30 },
];

interface Sample {
  readonly cell: Float32Array;
  readonly label: number;
}

/** Gaussian noise and a contrast/brightness change on a line image. */
function degrade(line: GrayImage, random: () => number): GrayImage {
  const sigma = random() * 14;
  const contrast = 0.45 + random() * 0.55;
  const offset = (random() - 0.5) * 60;
  const data = new Uint8Array(line.data.length);
  for (let i = 0; i < data.length; i++) {
    const gauss = Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
    const v = 128 + ((line.data[i] ?? 0) - 128) * contrast + offset + sigma * gauss;
    data[i] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
  }
  return { data, width: line.width, height: line.height };
}

/** The cells of one rendered, photographed page, labelled; empty when its band is not found whole. */
async function pageSamples(cv: OpenCv, random: () => number): Promise<Sample[]> {
  const spec = LAYOUTS[Math.floor(random() * LAYOUTS.length)] ?? LAYOUTS[0];
  if (!spec) return [];
  const truth = Array.from({ length: spec.lines }, () => randomLine(random, spec.length));
  const jpeg = await photographPage(spec.layout, truth, {
    scale: 3 + random() * 6,
    rotate: (random() - 0.5) * 10,
    blur: random() < 0.3 ? 0 : 0.3 + random() * 1.1,
    quality: Math.round(35 + random() * 60),
    colour: random() < 0.7,
  });
  const gray = grayOf(await decodeDocumentImage(jpeg));
  const mat = new cv.Mat(gray.height, gray.width, cv.CV_8UC1);
  try {
    mat.data.set(gray.data);
    const [pass] = locatorPasses();
    if (!pass) return [];
    const bands = rankBands(locateMrzBandsInPass(cv, gray, pass), DEFAULT_BAND_LOCATOR_OPTIONS.maxBands);
    const band = bands.find((b) => b.lines.length === spec.lines);
    if (!band) return [];
    const lines = mrzLineImages(cv, mat, orientBand(band, false));
    const samples: Sample[] = [];
    lines.forEach((image, i) => {
      const text = truth[i] ?? '';
      const cut = segmentLine(degrade(image, random), text.length);
      if (!cut) return;
      cut.cells.forEach((cell, k) => samples.push({ cell, label: MRZ_ALPHABET.indexOf(text[k] ?? '<') }));
    });
    return samples;
  } finally {
    mat.delete();
  }
}

interface Network {
  readonly hidden: number;
  readonly w1: Float64Array;
  readonly b1: Float64Array;
  readonly w2: Float64Array;
  readonly b2: Float64Array;
}

const INPUTS = CELL_WIDTH * CELL_HEIGHT;
const CLASSES = MRZ_ALPHABET.length;

function forward(net: Network, x: Float32Array, h: Float64Array, p: Float64Array): void {
  for (let j = 0; j < net.hidden; j++) {
    let s = net.b1[j] ?? 0;
    for (let i = 0, row = j * INPUTS; i < INPUTS; i++) s += (net.w1[row + i] ?? 0) * (x[i] ?? 0);
    h[j] = s > 0 ? s : 0;
  }
  let max = -Infinity;
  for (let c = 0; c < CLASSES; c++) {
    let s = net.b2[c] ?? 0;
    for (let j = 0, row = c * net.hidden; j < net.hidden; j++) s += (net.w2[row + j] ?? 0) * (h[j] ?? 0);
    p[c] = s;
    if (s > max) max = s;
  }
  let sum = 0;
  for (let c = 0; c < CLASSES; c++) sum += p[c] = Math.exp((p[c] ?? 0) - max);
  for (let c = 0; c < CLASSES; c++) p[c] = (p[c] ?? 0) / sum;
}

/** Mini-batch Adam on cross-entropy with a little L2 weight decay. */
function train(samples: readonly Sample[], hidden: number, epochs: number, random: () => number): Network {
  const gauss = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
  const net: Network = {
    hidden,
    w1: Float64Array.from({ length: hidden * INPUTS }, () => gauss() * Math.sqrt(2 / INPUTS)),
    b1: new Float64Array(hidden),
    w2: Float64Array.from({ length: CLASSES * hidden }, () => gauss() * Math.sqrt(1 / hidden)),
    b2: new Float64Array(CLASSES),
  };
  const params = [net.w1, net.b1, net.w2, net.b2];
  const grads = params.map((a) => new Float64Array(a.length));
  const m = params.map((a) => new Float64Array(a.length));
  const v = params.map((a) => new Float64Array(a.length));
  const [gw1, gb1, gw2, gb2] = grads;
  if (!gw1 || !gb1 || !gw2 || !gb2) throw new Error('no gradients');
  const h = new Float64Array(hidden);
  const p = new Float64Array(CLASSES);
  const dh = new Float64Array(hidden);
  const batch = 32;
  const decay = 1e-5;
  let step = 0;
  const order = samples.map((_, i) => i);
  for (let epoch = 0; epoch < epochs; epoch++) {
    const rate = 0.002 * (epoch < epochs - 3 ? 1 : 0.3);
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j] ?? 0, order[i] ?? 0];
    }
    let loss = 0;
    for (let start = 0; start < order.length; start += batch) {
      for (const g of grads) g.fill(0);
      const end = Math.min(order.length, start + batch);
      for (let n = start; n < end; n++) {
        const sample = samples[order[n] ?? 0];
        if (!sample) continue;
        const x = sample.cell;
        forward(net, x, h, p);
        loss -= Math.log((p[sample.label] ?? 0) + 1e-12);
        dh.fill(0);
        for (let c = 0; c < CLASSES; c++) {
          const d = (p[c] ?? 0) - (c === sample.label ? 1 : 0);
          gb2[c] = (gb2[c] ?? 0) + d;
          for (let j = 0, row = c * hidden; j < hidden; j++) {
            gw2[row + j] = (gw2[row + j] ?? 0) + d * (h[j] ?? 0);
            dh[j] = (dh[j] ?? 0) + d * (net.w2[row + j] ?? 0);
          }
        }
        for (let j = 0; j < hidden; j++) {
          if ((h[j] ?? 0) <= 0) continue;
          const d = dh[j] ?? 0;
          gb1[j] = (gb1[j] ?? 0) + d;
          for (let i = 0, row = j * INPUTS; i < INPUTS; i++) gw1[row + i] = (gw1[row + i] ?? 0) + d * (x[i] ?? 0);
        }
      }
      step++;
      const count = end - start;
      params.forEach((param, k) => {
        const g = grads[k];
        const mk = m[k];
        const vk = v[k];
        if (!g || !mk || !vk) return;
        for (let i = 0; i < param.length; i++) {
          const gi = (g[i] ?? 0) / count + decay * (param[i] ?? 0);
          mk[i] = 0.9 * (mk[i] ?? 0) + 0.1 * gi;
          vk[i] = 0.999 * (vk[i] ?? 0) + 0.001 * gi * gi;
          const mh = (mk[i] ?? 0) / (1 - 0.9 ** step);
          const vh = (vk[i] ?? 0) / (1 - 0.999 ** step);
          param[i] = (param[i] ?? 0) - (rate * mh) / (Math.sqrt(vh) + 1e-8);
        }
      });
    }
    console.log(`epoch ${epoch + 1}/${epochs}: loss ${(loss / order.length).toFixed(4)}`);
  }
  return net;
}

function accuracy(net: Network, samples: readonly Sample[]): { accuracy: number; confusions: string[] } {
  const h = new Float64Array(net.hidden);
  const p = new Float64Array(CLASSES);
  let right = 0;
  const confusions = new Map<string, number>();
  for (const s of samples) {
    forward(net, s.cell, h, p);
    let best = 0;
    for (let c = 1; c < CLASSES; c++) if ((p[c] ?? 0) > (p[best] ?? 0)) best = c;
    if (best === s.label) right++;
    else {
      const key = `${MRZ_ALPHABET[s.label]}→${MRZ_ALPHABET[best]}`;
      confusions.set(key, (confusions.get(key) ?? 0) + 1);
    }
  }
  const top = [...confusions].sort((a, b) => b[1] - a[1]).slice(0, 10);
  return { accuracy: samples.length > 0 ? right / samples.length : 0, confusions: top.map(([k, n]) => `${k} ${n}`) };
}

const round = (a: Float64Array) => Array.from(a, (x) => Math.round(x * 1e4) / 1e4);

export async function trainOcrb(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      pages: { type: 'string', default: '360' },
      seed: { type: 'string', default: '17' },
      hidden: { type: 'string', default: '64' },
      epochs: { type: 'string', default: '12' },
    },
  });
  const pages = Number(values.pages);
  const hidden = Number(values.hidden);
  const epochs = Number(values.epochs);
  const random = seededRandom(Number(values.seed));
  const cv = await loadOpenCv();
  const trainSet: Sample[] = [];
  const heldOut: Sample[] = [];
  let missed = 0;
  for (let page = 0; page < pages; page++) {
    const samples = await pageSamples(cv, random);
    if (samples.length === 0) missed++;
    (page % 6 === 5 ? heldOut : trainSet).push(...samples);
  }
  console.log(
    `${pages} pages (${missed} without a whole band): ${trainSet.length} cells to train, ${heldOut.length} held out`,
  );
  const net = train(trainSet, hidden, epochs, random);
  const result = accuracy(net, heldOut);
  console.log(
    `held-out cell accuracy ${(100 * result.accuracy).toFixed(2)} %; top confusions: ${result.confusions.join(', ')}`,
  );
  const model = {
    provenance:
      `npm run eval -- train-ocrb --pages ${pages} --seed ${values.seed} --hidden ${hidden} --epochs ${epochs}: ` +
      `${trainSet.length} cells of random MRZ-like lines rendered in ${OCR_B_FONT_FILE} (Debian fonts-ocr-b: ` +
      'OCR-B outlines by Matthew Skala, public domain, from metafont sources by Norbert Schwarz, "You may freely ' +
      'use, modify and/or distribute"), photographed, located and segmented by the reader; held-out cell ' +
      `accuracy ${(100 * result.accuracy).toFixed(2)} %.`,
    alphabet: MRZ_ALPHABET,
    cellWidth: CELL_WIDTH,
    cellHeight: CELL_HEIGHT,
    hidden,
    w1: round(net.w1),
    b1: round(net.b1),
    w2: round(net.w2),
    b2: round(net.b2),
  };
  writeFileSync(MODEL_FILE, `${JSON.stringify(model)}\n`);
  console.log(`wrote ${MODEL_FILE}`);
}

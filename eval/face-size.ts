/**
 * `npm run eval -- face-size <dir> [--workers N] [--sizes 12,16,20,24,32,48] [--folder F] [--detector tfjs|onnx]`
 *
 * How small a face can be and still be matched: every identity image of the set (face-dataset.ts) is
 * rescaled so that its subject has the given number of pixels between the eye centres (measured on the
 * image as sent, in 3-D as the size floor measures them: eye-distance.ts), and goes through the services'
 * path again: the face engine's analysis with F500's views and the subject rule (`selectSubjectFace`) with
 * its size floor lifted, so the floor itself is what is measured. For each size: the failures to acquire
 * (FTA), and F200's and F500's FNMR at FMR 10^-3 (the matcher's, over acquired pairs, at that size's own
 * threshold), FRR at FAR 10^-3 (a failure to acquire counted as a non-match), and FNMR / FMR at the
 * services' calibrated threshold for FMR 10^-3; both photos of a pair at the size, and one at the size
 * against the other at its own size. Writes reports/face-size.{md,json}; the floor in DEFAULT_SUBJECT_RULES
 * is chosen from it (docs/face-engine.md).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { FACE_ALGORITHMS, type FaceAlgorithmName } from '../src/engines/face/algorithms.js';
import { faceCalibration } from '../src/engines/face/face-calibration.js';
import { FaceEngine } from '../src/engines/face/face-engine.js';
import { DEFAULT_SUBJECT_RULES, selectSubjectFace } from '../src/engines/face/face-selection.js';
import { scoreAtFmrScore } from '../src/engines/scoring/score-calibration.js';
import { median } from '../src/lib/median.js';
import { detectorOption, DETECTOR_OPTION } from './detector-option.js';
import { loadIdentityImages, type LabelledImage } from './face-dataset.js';
import { acquisitionPairScores, type AcquisitionScores } from './pair-scores.js';
import { fmrAt, fnmrAt, fnmrAtFmr } from './verification-metrics.js';

/** The subject rule as the services apply it, without the floor this evaluation measures. */
const NO_FLOOR = { ...DEFAULT_SUBJECT_RULES, minInterEyePixels: 0 };

/** What one pass gives per image: its templates (undefined: not acquired) and the subject's eye distance. */
interface Acquired {
  readonly vectors: Readonly<Record<FaceAlgorithmName, Float32Array>> | undefined;
  readonly interEyePixels: number | undefined;
}

/** One algorithm's figures at one size. */
interface Figures {
  /** The matcher over acquired pairs: FNMR at that size's own threshold for FMR 10^-3. */
  readonly fnmrAt1e3: number;
  /** Every pair, a failure to acquire a non-match: FRR at FAR 10^-3. */
  readonly frrAt1e3: number;
  /** At the services' threshold for FMR 10^-3 (the dev-set calibration), every pair: FRR and FAR. */
  readonly frrAtServiceThreshold: number;
  readonly farAtServiceThreshold: number;
}

interface SizeResult {
  /** Pixels between the eyes asked for; undefined: the images as they are. */
  readonly target: number | undefined;
  readonly measuredMedian: number;
  readonly fta: number;
  /** Both photos of a pair at the size. */
  readonly both: Readonly<Record<FaceAlgorithmName, Figures>>;
  /** The photo at the size against the other photo as it is. */
  readonly againstNative: Readonly<Record<FaceAlgorithmName, Figures>>;
}

export async function evalFaceSize(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      workers: { type: 'string' },
      sizes: { type: 'string', default: '12,16,20,24,32,48' },
      folder: { type: 'string', default: 'identity/' },
      ...DETECTOR_OPTION,
    },
  });
  const dir = positionals[0];
  if (!dir) throw new Error('usage: npm run eval -- face-size <dir> [--sizes 12,16,20,24,32,48]');
  const sizes = values.sizes.split(',').map(Number);
  if (sizes.some((s) => !(s > 0))) throw new Error(`--sizes must be positive numbers (got ${values.sizes})`);
  const images = loadIdentityImages(dir, values.folder);
  const workers = Number(values.workers ?? availableParallelism());
  const identities = new Set(images.map((i) => i.identity)).size;
  const detector = detectorOption(values.detector);
  console.log(
    `${images.length} images of ${identities} identities from ${dir}; ${workers} workers; ${detector} detector`,
  );

  const engine = FaceEngine.start({ workers, pipeline: { detector } });
  try {
    const files = images.map((image) => readFileSync(image.file));
    const native = await acquireAll(engine, files, 'as they are');
    const results: SizeResult[] = [summarise(undefined, images, native, native)];
    for (const target of sizes) {
      const rescaled = await Promise.all(
        files.map(async (bytes, i) => {
          const eyes = native[i]?.interEyePixels;
          return eyes === undefined ? undefined : await rescale(bytes, target / eyes);
        }),
      );
      const acquired = await acquireAll(engine, rescaled, `${target} px between the eyes`);
      results.push(summarise(target, images, acquired, native));
    }
    writeReport(dir, values.folder, detector, images.length, identities, sizes, results);
  } finally {
    await engine.close();
  }
}

/** Each image through the engine and the subject rule (no floor); an image that is undefined is not acquired. */
async function acquireAll(
  engine: FaceEngine,
  files: ReadonlyArray<Buffer | undefined>,
  label: string,
): Promise<Acquired[]> {
  const started = performance.now();
  const acquired = await Promise.all(
    files.map(async (bytes): Promise<Acquired> => {
      if (bytes === undefined) return { vectors: undefined, interEyePixels: undefined };
      const analysis = await engine.analyze(bytes, FACE_ALGORITHMS.F500.embeddings);
      const subject = selectSubjectFace(analysis.faces, analysis, NO_FLOOR);
      if (!subject.ok) return { vectors: undefined, interEyePixels: undefined };
      return {
        vectors: {
          F200: FACE_ALGORITHMS.F200.templateVector(subject.face),
          F500: FACE_ALGORITHMS.F500.templateVector(subject.face),
        },
        interEyePixels: subject.interEyePixels,
      };
    }),
  );
  console.log(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return acquired;
}

/** The image scaled by `factor` (Lanczos), as PNG so that no compression adds to the loss of size. */
async function rescale(bytes: Buffer, factor: number): Promise<Buffer> {
  const image = sharp(bytes).rotate();
  const meta = await image.metadata();
  // EXIF orientations 5 to 8 turn the image a quarter: the upright image's sides are swapped.
  const quarterTurn = (meta.orientation ?? 1) >= 5;
  const [w, h] = quarterTurn ? [meta.height ?? 0, meta.width ?? 0] : [meta.width ?? 0, meta.height ?? 0];
  const width = Math.max(1, Math.round(w * factor));
  const height = Math.max(1, Math.round(h * factor));
  return image.resize(width, height, { fit: 'fill', kernel: 'lanczos3' }).png().toBuffer();
}

function summarise(
  target: number | undefined,
  images: readonly LabelledImage[],
  probes: readonly Acquired[],
  native: readonly Acquired[],
): SizeResult {
  const measured = probes.flatMap((p) => (p.interEyePixels === undefined ? [] : [p.interEyePixels]));
  const vectors = (acquired: readonly Acquired[], algorithm: FaceAlgorithmName) =>
    acquired.map((image) => image.vectors?.[algorithm]);
  const scores = (algorithm: FaceAlgorithmName, against: readonly Acquired[] | undefined) =>
    acquisitionPairScores(
      images,
      vectors(probes, algorithm),
      against === undefined ? undefined : vectors(against, algorithm),
    );
  const figures = (against: readonly Acquired[] | undefined): Record<FaceAlgorithmName, Figures> => ({
    F200: figuresOf('F200', scores('F200', against)),
    F500: figuresOf('F500', scores('F500', against)),
  });
  return {
    target,
    measuredMedian: measured.length === 0 ? 0 : median(measured, 'upper'),
    fta: probes.filter((p) => p.vectors === undefined).length / images.length,
    both: figures(undefined),
    againstNative: figures(native),
  };
}

function figuresOf(algorithm: FaceAlgorithmName, scores: AcquisitionScores): Figures {
  const serviceThreshold = scoreAtFmrScore(faceCalibration(algorithm), 3);
  return {
    fnmrAt1e3: scores.matcher.genuine.length === 0 ? 1 : fnmrAtFmr(scores.matcher, 1e-3).fnmr,
    frrAt1e3: fnmrAtFmr(scores.system, 1e-3).fnmr,
    frrAtServiceThreshold: fnmrAt(scores.system, serviceThreshold),
    farAtServiceThreshold: fmrAt(scores.system, serviceThreshold),
  };
}

function writeReport(
  dir: string,
  folder: string,
  detector: string,
  imageCount: number,
  identities: number,
  sizes: readonly number[],
  results: readonly SizeResult[],
): void {
  const header =
    '| px between the eyes (measured median) | FTA | F200 FNMR@FMR1e-3 | F500 FNMR@FMR1e-3 | F200 FRR@FAR1e-3 | F500 FRR@FAR1e-3 | F500 at the service threshold: FRR / FAR |\n|---|---|---|---|---|---|---|';
  const table = (pick: (r: SizeResult) => Readonly<Record<FaceAlgorithmName, Figures>>) =>
    [
      header,
      ...results.map((r) => {
        const f = pick(r);
        const size =
          r.target === undefined
            ? `as they are (${r.measuredMedian.toFixed(1)})`
            : `${r.target} (${r.measuredMedian.toFixed(1)})`;
        return `| ${size} | ${pct(r.fta)} | ${pct(f.F200.fnmrAt1e3)} | ${pct(f.F500.fnmrAt1e3)} | ${pct(f.F200.frrAt1e3)} | ${pct(f.F500.frrAt1e3)} | ${pct(f.F500.frrAtServiceThreshold)} / ${pct(f.F500.farAtServiceThreshold, 3)} |`;
      }),
    ].join('\n');
  const both = table((r) => r.both);
  const againstNative = table((r) => r.againstNative);
  console.log(`\nboth photos at the size\n${both}\n\none photo at the size, the other as it is\n${againstNative}\n`);
  const options = `${folder === 'identity/' ? '' : ` --folder ${folder}`} --detector ${detector}`;
  const md = `# Face size: matching against the pixels between the eyes

Produced by \`npm run eval -- face-size ${dir} --sizes ${sizes.join(',')}${options}\` on ${new Date().toISOString().slice(0, 10)}
(${cpus()[0]?.model ?? 'unknown CPU'}): ${imageCount} images of ${identities} identities. Each image is rescaled (Lanczos, PNG)
so that its subject, as measured on the image as it is, has the given distance between the eye centres (in 3-D, as the
size floor measures it: a turned head counted as if it faced the camera; downscaled
below the set's own size, upscaled above it: an upscaled image holds no more detail than the original), then analysed
by the face engine and given to the services' subject rule without its size floor. The measured median is the
distance the detector then finds. FTA: images without a subject at that size (an image without one as it is has
none at any size). FNMR@FMR1e-3: the matcher over pairs of two acquired images, at that row's own threshold.
FRR@FAR1e-3 counts every pair, a failure to acquire being a non-match (ISO/IEC 19795-1). The last column is at the
services' calibrated threshold for FMR 10^-3 (scorePercent 50), over every pair.

## Both photos of a pair at the size

${both}

## One photo at the size, the other as it is

Every ordered pair (the rescaled photo of one image against the other image as it is).

${againstNative}
`;
  mkdirSync('reports', { recursive: true });
  const name =
    folder === 'identity/' ? 'face-size' : `face-size-${folder.replace(/[^a-z0-9]+/gi, '-').replace(/-+$/, '')}`;
  writeFileSync(`reports/${name}.md`, md);
  writeFileSync(
    `reports/${name}.json`,
    `${JSON.stringify({ dataset: dir, folder, images: imageCount, identities, results }, null, 1)}\n`,
  );
}

function pct(x: number, digits = 2): string {
  return `${(x * 100).toFixed(digits)}%`;
}

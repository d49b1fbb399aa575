/**
 * `npm run eval -- faces <dir> [--workers N] [--timing-images N] [--no-calibration] [--folder F]
 *   [--detector tfjs|onnx] [--compare-detector tfjs|onnx] [--algorithms-only]`
 *
 * Face-recognition accuracy and speed on a labelled folder (see face-dataset.ts): every same-identity
 * pair is a genuine comparison, every other pair an impostor one. Each image's face is the one the
 * services would take: the subject rule with its size floor (`selectSubjectFace`, DEFAULT_SUBJECT_RULES);
 * an image it refuses is a failure to acquire (FTA), reported beside the matcher's EER / FNMR and counted
 * as a non-match in the system figures (ISO/IEC 19795-1 FRR / FAR). Evaluates the engine's algorithms
 * (F200, F500), the same under the subject rule before issue 15, and the alternatives they were chosen
 * against, prints a table, and writes
 * reports/face-eval.{md,json}, reports/face-eval-det.svg and the score calibration tables
 * src/engines/face/calibration/<algorithm>.json. `--folder pad/` evaluates the live images of the
 * PAD set instead (other people, other photos) into reports/face-eval-pad.*, without calibration.
 * `--detector` picks the detector of every run (default: the engine's; human's `faceres` rows always run on
 * TF.js, the only detector with it); `--compare-detector` runs F200 and F500 on a second detector too, adds
 * their rows, and compares each image's templates from the two (are stored templates still comparable?).
 * `--algorithms-only` leaves out the alternative pipelines (four more passes over the set): F200, F500 and
 * their rows under the earlier subject rule (and on the compared detector) only, into
 * reports/face-eval-algorithms.* (the full report stays).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { F500_VIEWS, FACE_ALGORITHMS, type FaceAlgorithmName } from '../src/engines/face/algorithms.js';
import { buildCalibrationTable } from '../src/engines/scoring/score-calibration.js';
import type { WorkerAnalysis } from '../src/engines/face/face-analysis-types.js';
import { FaceEngine } from '../src/engines/face/face-engine.js';
import {
  DEFAULT_SUBJECT_RULES,
  selectSubjectFace,
  type SubjectFace,
  type SubjectRefusal,
  type SubjectRules,
} from '../src/engines/face/face-selection.js';
import {
  PLAIN_VIEW,
  type EmbeddingOptions,
  type FaceObservation,
  type FacePipelineConfig,
} from '../src/engines/face/face-pipeline.js';
import { DEFAULT_CROP_GEOMETRY } from '../src/engines/face/face-alignment.js';
import { median } from '../src/lib/median.js';
import { dot, normalisedSum } from '../src/lib/vectors.js';
import { onCanvas } from '../test/helpers/faces.js';
import { detectorOption, DETECTOR_OPTION } from './detector-option.js';
import { detSvg } from './det-plot.js';
import { loadIdentityImages, type LabelledImage } from './face-dataset.js';
import { acquisitionPairScores, type AcquisitionScores } from './pair-scores.js';
import { detCurve, equalErrorRate, fnmrAtFmr, rocAuc } from './verification-metrics.js';

/**
 * The engine loads human's `faceres` model only when asked: the shipped algorithms do not use it. It is
 * part of human, so only the TF.js detector has it.
 */
const WITH_FACERES: Partial<FacePipelineConfig> = { description: true, detector: 'tfjs' };
/** The crop framing used before the mean-shape fit: eye and mouth centres, roll dead zone 10°. */
const EYES_MOUTH: Partial<FacePipelineConfig> = {
  alignment: { method: 'eyes-mouth', geometry: DEFAULT_CROP_GEOMETRY },
  refineMesh: false,
};
const MEAN_SHAPE_DEAD_ZONE: Partial<FacePipelineConfig> = {
  alignment: { method: 'mean-shape', padding: 0.25, levelAboveDegrees: 10 },
};
const DETECTOR_MESH: Partial<FacePipelineConfig> = { refineMesh: false };
/**
 * The services' subject rule until issue 15, as parameters of today's rule: any second face at least half
 * the largest's width refused the image (no prominence margin can settle it), and 20 px between the eyes.
 */
const RULES_BEFORE_ISSUE_15: SubjectRules = { minInterEyePixels: 20, contenderRatio: 0.5, ambiguityMargin: Infinity };

export async function evalFaces(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      workers: { type: 'string' },
      'timing-images': { type: 'string', default: '40' },
      'no-calibration': { type: 'boolean', default: false },
      folder: { type: 'string', default: 'identity/' },
      'compare-detector': { type: 'string' },
      'algorithms-only': { type: 'boolean', default: false },
      ...DETECTOR_OPTION,
    },
  });
  const dir = positionals[0];
  if (!dir) throw new Error('usage: npm run eval -- faces <dir>');
  // Another folder of the set (e.g. `pad/`, whose live images have identities too) is a check on
  // other people and photos: it writes its own report and never the calibration tables.
  const folder = values.folder;
  const main = folder === 'identity/';
  const images = loadIdentityImages(dir, folder);
  const identities = new Set(images.map((i) => i.identity)).size;
  const workers = Number(values.workers ?? availableParallelism());
  const detector = detectorOption(values.detector);
  const compareWith = values['compare-detector'] === undefined ? undefined : detectorOption(values['compare-detector']);
  if (compareWith === detector) throw new Error(`--compare-detector must name another detector than ${detector}`);
  console.log(
    `${images.length} images of ${identities} identities from ${dir}; ${workers} workers; ${detector} detector`,
  );
  const runAll = (pipeline: Partial<FacePipelineConfig>, embeddings: EmbeddingOptions, label: string) =>
    runImages(images, workers, { detector, ...pipeline }, embeddings, label);

  // Runs over the whole set (each variant's vectors come from one of these).
  const mainRun = await runAll(
    {},
    { views: F500_VIEWS, description: false },
    'mean-shape crops on the refined mesh, four views',
  );
  const firstViews = (subjects: Acquisition, count: number) =>
    vectorsOf(subjects, (f) => normalisedSum(f.recognitionViews.slice(0, count)));
  const variants: Variant[] = [
    {
      name: 'human mesh → refined mesh (second FaceMesh pass) → dlib mean-shape crop (always levelled) → faceRecognitionNet',
      key: 'aligned',
      ...firstViews(mainRun.subjects, 1),
      embeddings: { views: [PLAIN_VIEW], description: false },
    },
    {
      name: '… + mirrored crop averaged',
      key: 'aligned-flip',
      ...firstViews(mainRun.subjects, 2),
      embeddings: { views: F500_VIEWS.slice(0, 2), description: false },
    },
    {
      name: '… + mirror, 5% closer crop and its mirror (4 views)',
      key: 'aligned-4views',
      ...firstViews(mainRun.subjects, 4),
      embeddings: { views: F500_VIEWS, description: false },
    },
  ];
  // The pipelines the shipped ones were chosen against: each another pass over the set (human's `faceres` on
  // TF.js the slowest); `--algorithms-only` leaves them out.
  if (!values['algorithms-only']) {
    const detectorMeshRun = await runAll(
      DETECTOR_MESH,
      { views: F500_VIEWS, description: false },
      "mean-shape crops on human's mesh, four views",
    );
    const eyesMouthRun = await runAll(EYES_MOUTH, { views: [PLAIN_VIEW], description: false }, 'eyes-and-mouth crops');
    const deadZoneRun = await runAll(
      MEAN_SHAPE_DEAD_ZONE,
      { views: [PLAIN_VIEW], description: false },
      'mean-shape crops, roll dead zone',
    );
    const descriptionRun = await runAll(WITH_FACERES, { views: [], description: true }, 'faceres descriptions');
    variants.push(
      {
        name: "mean-shape crop on human's whole-pixel mesh (no refinement pass), the previous F200",
        key: 'detector-mesh',
        ...firstViews(detectorMeshRun.subjects, 1),
        embeddings: { views: [PLAIN_VIEW], description: false },
        pipeline: DETECTOR_MESH,
      },
      {
        name: '… its 4 views, the previous F500',
        key: 'detector-mesh-4views',
        ...firstViews(detectorMeshRun.subjects, 4),
        embeddings: { views: F500_VIEWS, description: false },
        pipeline: DETECTOR_MESH,
      },
      {
        name: 'mean-shape crop, roll levelled only beyond 10°',
        key: 'mean-shape-dead-zone',
        ...firstViews(deadZoneRun.subjects, 1),
        embeddings: { views: [PLAIN_VIEW], description: false },
        pipeline: MEAN_SHAPE_DEAD_ZONE,
      },
      {
        name: 'eye and mouth centres → crop (roll dead zone 10°), F200 before the mean-shape crop',
        key: 'eyes-mouth',
        ...firstViews(eyesMouthRun.subjects, 1),
        embeddings: { views: [PLAIN_VIEW], description: false },
        pipeline: EYES_MOUTH,
      },
      {
        name: 'human faceres (1024-d)',
        key: 'faceres',
        ...vectorsOf(descriptionRun.subjects, (f) => f.description),
        embeddings: { views: [], description: true },
        pipeline: WITH_FACERES,
      },
    );
    const variantOf = (key: string): Variant => {
      const variant = variants.find((v) => v.key === key);
      if (!variant) throw new Error(`no variant ${key}`);
      return variant;
    };
    const [mirrored, faceres] = [variantOf('aligned-flip'), variantOf('faceres')];
    for (const weight of [0.15]) {
      variants.push({
        name: `crop + mirror fused with faceres (weight ${weight})`,
        key: `fusion-${weight}`,
        vectors: images.map((_, i) => fuse(mirrored.vectors[i], faceres.vectors[i], weight)),
        subjects: mirrored.subjects,
        embeddings: { views: F500_VIEWS.slice(0, 2), description: true },
        pipeline: WITH_FACERES,
      });
    }
  }
  for (const [name, algorithm] of Object.entries(FACE_ALGORITHMS)) {
    const source = variants.find((v) => v.key === algorithm.evalVariant);
    if (!source) throw new Error(`algorithm ${name} names unknown variant ${algorithm.evalVariant}`);
    variants.push({ ...source, name: `${name}: ${source.name}`, key: name, algorithm: name as FaceAlgorithmName });
  }
  // The same templates, had the services kept the subject rule they had before issue 15.
  const previousRule = subjectsOf(mainRun.analyses, RULES_BEFORE_ISSUE_15);
  for (const [name, algorithm] of Object.entries(FACE_ALGORITHMS)) {
    variants.push({
      name: `${name} under the subject rule before issue 15 (a second face ≥ 0.5× the largest refused, 20 px floor)`,
      key: `${name}-rule-before-15`,
      ...firstViews(previousRule, algorithm.embeddings.views.length),
      embeddings: algorithm.embeddings,
      timedAs: name,
    });
  }

  // The shipped algorithms on the other detector, and how far each image's templates moved between the two.
  let crossDetector: CrossDetectorTemplates[] = [];
  if (compareWith !== undefined) {
    const otherRun = await runAll(
      { detector: compareWith },
      { views: F500_VIEWS, description: false },
      `mean-shape crops on the refined mesh, four views, ${compareWith} detector`,
    );
    crossDetector = Object.entries(FACE_ALGORITHMS).map(([name, algorithm]) => {
      const views = algorithm.embeddings.views.length;
      const other = firstViews(otherRun.subjects, views);
      variants.push({
        name: `${name} with the ${compareWith} detector`,
        key: `${name}-${compareWith}`,
        ...other,
        embeddings: algorithm.embeddings,
        pipeline: { detector: compareWith },
      });
      return templatesAcross(name, firstViews(mainRun.subjects, views).vectors, other.vectors);
    });
  }

  const timingSet = await timingImages(images.slice(0, Number(values['timing-images'])));
  const results: VariantResult[] = [];
  for (const variant of variants) {
    const scores = acquisitionPairScores(images, variant.vectors);
    const timedAs = variant.timedAs === undefined ? undefined : results.find((r) => r.key === variant.timedAs);
    const timing = timedAs?.msPerImage640 ?? (await timeVariant(timingSet, { detector, ...variant.pipeline }, variant));
    const result = summarise(variant, images, scores, timing);
    results.push(result);
    console.log(
      `${variant.key}: FTA ${pct(result.fta)} EER ${pct(result.eer)} FNMR@1e-3 ${pct(result.fnmrAt1e3)} ` +
        `FRR@FAR1e-3 ${pct(result.frrAt1e3)} ms ${timing.toFixed(0)}`,
    );
    if (variant.algorithm && main && !values['no-calibration']) {
      const { genuine, impostor } = scores.matcher;
      const table = buildCalibrationTable(variant.algorithm, impostor, {
        dataset: `${basename(dir)} (${images.length} images, ${identities} identities; ${genuine.length} genuine / ${impostor.length} impostor pairs)`,
        command: `npm run eval -- faces ${dir}`,
        date: new Date().toISOString().slice(0, 10),
      });
      // One point per line keeps the table readable and its diffs small.
      const json = JSON.stringify(table, null, 1).replace(/\[\n\s+(-?[\d.e-]+),\n\s+(-?[\d.e-]+)\n\s+\]/g, '[$1, $2]');
      writeFileSync(join('src/engines/face/calibration', `${variant.algorithm}.json`), `${json}\n`);
    }
  }
  // A run without the alternatives writes beside the full report rather than over it.
  const fullReport = main ? 'face-eval' : `face-eval-${folder.replace(/[^a-z0-9]+/gi, '-').replace(/-+$/, '')}`;
  const report = values['algorithms-only'] ? `${fullReport}-algorithms` : fullReport;
  const options = [
    main ? '' : ` --folder ${folder}`,
    ` --detector ${detector}`,
    compareWith ? ` --compare-detector ${compareWith}` : '',
    values['algorithms-only'] ? ' --algorithms-only' : '',
  ];
  const command = `npm run eval -- faces ${dir}${options.join('')}`;
  writeReports(dir, report, command, images.length, identities, workers, results, crossDetector);
}

interface Variant {
  readonly name: string;
  readonly key: string;
  readonly vectors: Array<Float32Array | undefined>;
  /** What the subject rule made of each image; `vectors` has one exactly where it found a subject. */
  readonly subjects: Acquisition;
  readonly embeddings: EmbeddingOptions;
  readonly pipeline?: Partial<FacePipelineConfig>;
  readonly algorithm?: FaceAlgorithmName;
  /** The variant whose timing this one shares (the same pipeline), instead of timing it again. */
  readonly timedAs?: string;
}

interface VariantResult {
  readonly name: string;
  readonly key: string;
  readonly dims: number;
  /** Failures to acquire: share of the images the subject rule refused, and how many for each reason. */
  readonly fta: number;
  readonly ftaByReason: Readonly<Record<SubjectRefusal, number>>;
  /** Pairs of two acquired images (the matcher's figures). */
  readonly genuinePairs: number;
  readonly impostorPairs: number;
  readonly eer: number;
  readonly fnmrAt1e2: number;
  readonly fnmrAt1e3: number;
  readonly thresholdAt1e3: number;
  /** ISO/IEC 19795-1 system figures over every pair, a pair with a failure to acquire a non-match. */
  readonly frrAt1e3: number;
  readonly systemEer: number;
  readonly auc: number;
  readonly rank1: number;
  readonly msPerImage640: number;
  readonly det: Array<{ fmr: number; fnmr: number }>;
}

/**
 * How far one algorithm's templates of the same images moved between two detectors: the cosine of each image's two
 * templates (1 = the same template), over the images both acquired.
 */
interface CrossDetectorTemplates {
  readonly algorithm: string;
  /** Images with a template from both detectors. */
  readonly images: number;
  /** Images acquired by one detector only. */
  readonly acquiredByOneOnly: number;
  readonly min: number;
  readonly p1: number;
  readonly p5: number;
  readonly median: number;
}

/** The same images' templates from two detectors compared (an image missing from either is counted apart). */
function templatesAcross(
  algorithm: string,
  ours: ReadonlyArray<Float32Array | undefined>,
  theirs: ReadonlyArray<Float32Array | undefined>,
): CrossDetectorTemplates {
  const cosines: number[] = [];
  let acquiredByOneOnly = 0;
  ours.forEach((a, i) => {
    const b = theirs[i];
    if (a && b) cosines.push(dot(a, b));
    else if (a || b) acquiredByOneOnly++;
  });
  cosines.sort((x, y) => x - y);
  const at = (q: number) => cosines[Math.min(cosines.length - 1, Math.floor(q * cosines.length))] ?? NaN;
  return {
    algorithm,
    images: cosines.length,
    acquiredByOneOnly,
    min: at(0),
    p1: at(0.01),
    p5: at(0.05),
    median: at(0.5),
  };
}

/** One pass of the engine over the set: each image's analysis and its subject under the services' rule. */
interface Run {
  readonly analyses: readonly WorkerAnalysis[];
  readonly subjects: Acquisition;
}

type Acquisition = ReadonlyArray<SubjectFace<FaceObservation>>;

async function runImages(
  images: readonly LabelledImage[],
  workers: number,
  pipeline: Partial<FacePipelineConfig>,
  embeddings: EmbeddingOptions,
  label: string,
): Promise<Run> {
  const engine = FaceEngine.start({ workers, pipeline });
  const started = performance.now();
  try {
    const analyses = await Promise.all(images.map((image) => engine.analyze(readFileSync(image.file), embeddings)));
    console.log(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return { analyses, subjects: subjectsOf(analyses, DEFAULT_SUBJECT_RULES) };
  } finally {
    await engine.close();
  }
}

/** The face each photo is of, as the services choose it (LFW photos can show other people behind). */
function subjectsOf(analyses: readonly WorkerAnalysis[], rules: SubjectRules): Acquisition {
  return analyses.map((analysis) => selectSubjectFace(analysis.faces, analysis, rules));
}

function vectorsOf(
  subjects: Acquisition,
  pick: (face: FaceObservation) => Float32Array | undefined,
): Pick<Variant, 'vectors' | 'subjects'> {
  return { subjects, vectors: subjects.map((subject) => (subject.ok ? pick(subject.face) : undefined)) };
}

/** Weighted score fusion as one vector: the cosine of the concatenation is the weighted mean of the two cosines. */
function fuse(a: Float32Array | undefined, b: Float32Array | undefined, weight: number): Float32Array | undefined {
  if (!a || !b) return undefined;
  const out = new Float32Array(a.length + b.length);
  const wa = Math.sqrt(1 - weight);
  const wb = Math.sqrt(weight);
  a.forEach((v, i) => (out[i] = v * wa));
  b.forEach((v, i) => (out[a.length + i] = v * wb));
  return out;
}

/** Leave-one-out closed-set rank-1: is each image's nearest other image of the same person? */
function rankOne(images: readonly LabelledImage[], vectors: ReadonlyArray<Float32Array | undefined>): number {
  let hits = 0;
  for (const [i, image] of images.entries()) {
    const probe = vectors[i];
    if (!probe) continue;
    let best = -Infinity;
    let bestJ = -1;
    for (let j = 0; j < images.length; j++) {
      const candidate = vectors[j];
      if (j === i || !candidate) continue;
      const s = dot(probe, candidate);
      if (s > best) {
        best = s;
        bestJ = j;
      }
    }
    if (images[bestJ]?.identity === image.identity) hits++; // bestJ is -1 (no image) when no other has a face
  }
  return hits / images.length;
}

/** The first images centred on a 640×480 grey canvas at 2× (a selfie-sized face), for timing. */
async function timingImages(images: readonly LabelledImage[]): Promise<Buffer[]> {
  return Promise.all(
    images.map(async (image) => {
      const face = await sharp(readFileSync(image.file)).resize({ height: 300 }).toBuffer();
      return onCanvas(face, { width: 640, height: 480, grey: 128 }, { top: 90 });
    }),
  );
}

/** Median single-thread milliseconds per 640×480 image (decode, detection, embedding), on one worker. */
async function timeVariant(
  images: readonly Buffer[],
  pipeline: Partial<FacePipelineConfig>,
  variant: Variant,
): Promise<number> {
  const engine = FaceEngine.start({ workers: 1, pipeline });
  try {
    const [warmUp] = images;
    if (warmUp === undefined) throw new Error('no images to time');
    await engine.analyze(warmUp, variant.embeddings);
    const times: number[] = [];
    for (const image of images) {
      const a = await engine.analyze(image, variant.embeddings);
      times.push(a.decodeMs + a.timings.detectMs + a.timings.embedMs);
    }
    return median(times, 'upper');
  } finally {
    await engine.close();
  }
}

function summarise(
  variant: Variant,
  images: readonly LabelledImage[],
  scores: AcquisitionScores,
  msPerImage640: number,
): VariantResult {
  const { matcher, system } = scores;
  const at1e3 = fnmrAtFmr(matcher, 1e-3);
  const ftaByReason: Record<SubjectRefusal, number> = { 'no-face': 0, 'ambiguous-faces': 0, 'face-too-small': 0 };
  for (const subject of variant.subjects) if (!subject.ok) ftaByReason[subject.reason]++;
  return {
    name: variant.name,
    key: variant.key,
    dims: variant.vectors.find(Boolean)?.length ?? 0,
    fta: variant.vectors.filter((v) => !v).length / images.length,
    ftaByReason,
    genuinePairs: matcher.genuine.length,
    impostorPairs: matcher.impostor.length,
    eer: equalErrorRate(matcher).eer,
    fnmrAt1e2: fnmrAtFmr(matcher, 1e-2).fnmr,
    fnmrAt1e3: at1e3.fnmr,
    thresholdAt1e3: at1e3.threshold,
    frrAt1e3: fnmrAtFmr(system, 1e-3).fnmr,
    systemEer: equalErrorRate(system).eer,
    auc: rocAuc(matcher),
    rank1: rankOne(images, variant.vectors),
    msPerImage640,
    det: detCurve(matcher),
  };
}

function writeReports(
  dir: string,
  name: string,
  command: string,
  imageCount: number,
  identities: number,
  workers: number,
  results: readonly VariantResult[],
  crossDetector: readonly CrossDetectorTemplates[],
): void {
  mkdirSync('reports', { recursive: true });
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const header =
    '| pipeline | dims | FTA (no face / ambiguous / too small) | genuine / impostor pairs acquired | EER | FNMR@FMR1e-2 | FNMR@FMR1e-3 (threshold) | FRR@FAR1e-3 | EER (FRR = FAR) | ROC AUC | rank-1 | ms/img 640×480 |\n|---|---|---|---|---|---|---|---|---|---|---|---|';
  const rows = results.map((r) => {
    const reasons = r.ftaByReason;
    const fta = `${pct(r.fta)} (${reasons['no-face']} / ${reasons['ambiguous-faces']} / ${reasons['face-too-small']})`;
    return `| ${r.name} | ${r.dims} | ${fta} | ${r.genuinePairs} / ${r.impostorPairs} | ${pct(r.eer)} | ${pct(r.fnmrAt1e2)} | ${pct(r.fnmrAt1e3)} (${r.thresholdAt1e3.toFixed(3)}) | ${pct(r.frrAt1e3)} | ${pct(r.systemEer)} | ${r.auc.toFixed(4)} | ${pct(r.rank1)} | ${r.msPerImage640.toFixed(0)} |`;
  });
  const table = [header, ...rows].join('\n');
  console.log(`\n${table}\n`);
  const crossSection =
    crossDetector.length === 0
      ? ''
      : `
## The same images' templates from the two detectors

Cosine of each image's template from this run's detector and from the other one (\`--compare-detector\`), over the
images both acquired: how far a template stored with one detector is from a probe of the same photo taken with the
other.

| algorithm | images | acquired by one only | min | 1st percentile | 5th percentile | median |
|---|---|---|---|---|---|---|
${crossDetector.map((c) => `| ${c.algorithm} | ${c.images} | ${c.acquiredByOneOnly} | ${c.min.toFixed(8)} | ${c.p1.toFixed(8)} | ${c.p5.toFixed(8)} | ${c.median.toFixed(8)} |`).join('\n')}
`;
  if (crossSection) console.log(crossSection);
  const md = `# Face recognition evaluation

Produced by \`${command}\` on ${new Date().toISOString().slice(0, 10)}: ${imageCount} images of ${identities} identities,
every same-identity pair genuine and every other pair impostor; cosine similarity. ${workers} worker threads for the
accuracy runs; timing is the median single-thread time (decode + detection + embedding) of each pipeline on one worker
over images centred on a 640×480 canvas, on ${cpu}.

Each image's face is the one the services take: the subject rule with its size floor (\`selectSubjectFace\` with
\`DEFAULT_SUBJECT_RULES\`, src/engines/face/face-selection.ts; docs/face-engine.md). An image the rule refuses (no face,
two equally dominant faces, a face under the size floor) is a failure to acquire (FTA; the images it refused, by
reason, in brackets). EER, FNMR and ROC AUC are the matcher's, over the pairs of two acquired images (FNMR / FMR);
FRR@FAR1e-3 and EER (FRR = FAR) count every pair, a pair with a failure to acquire being a non-match at any
threshold, genuine or impostor (ISO/IEC 19795-1 FRR / FAR: what a user of the API sees). Rank-1 is leave-one-out
closed-set identification over all images (an image not acquired counts as a miss). The rows "under the subject
rule before issue 15" are F200 and F500 with the services' earlier rule (any second face at least half the
largest's width refused the image; 20 px floor) on the same analyses.

${table}

![DET](${name}-det.svg)
${crossSection}`;
  writeFileSync(`reports/${name}.md`, md);
  writeFileSync(
    `reports/${name}.json`,
    `${JSON.stringify({ dataset: dir, command, images: imageCount, identities, cpu, results, crossDetector }, null, 1)}\n`,
  );
  writeFileSync(
    `reports/${name}-det.svg`,
    detSvg(
      `DET on ${basename(dir)} (${imageCount} images)`,
      results.filter((r) => !r.key.startsWith('F')).map((r) => ({ name: r.key, points: r.det })),
    ),
  );
}

function pct(x: number): string {
  return `${(x * 100).toFixed(2)}%`;
}

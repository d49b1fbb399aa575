import { decodeBase64 } from '../../crypto/base64.js';
import { roundTo } from '../../lib/rounding.js';
import type { FaceEngine } from '../../engines/face/face-engine.js';
import type { AnalyzedFace, WorkerAnalysis } from '../../engines/face/face-analysis-types.js';
import type { Rotation } from '../../engines/face/rotation.js';
import type { FaceMetrics } from '../../engines/face-quality/face-quality.js';
import { isMetricName, METRICS, type MetricName } from '../../engines/face-quality/metric-catalog.js';
import { invalidValue } from '../../server/errors/api-error.js';
import { fromRequestImage } from '../../server/errors/request-image-error.js';
import { evaluateCompliance } from './compliance.js';
import { constructFace } from './construction.js';
import { detectionOptions, selectFaces } from './detection-options.js';
import type { FaceProfile } from './profile.js';
import { requireProfile } from './profile-parser.js';
import type { AnalyzeImageRequest } from './schemas.js';

/** Decimal places of the scores and eye positions in a response. */
const DIGITS = 4;

/** Nothing to embed: analysis needs landmarks, pose and the quality pass only. */
const NO_EMBEDDINGS = { views: [], description: false } as const;

interface OutputPlan {
  readonly id: string;
  /**
   * Metrics to report (the profile's, then the ones asked for) and the profile that judges them;
   * undefined when neither was given.
   */
  readonly report: { readonly metrics: readonly MetricName[]; readonly profile: FaceProfile | undefined } | undefined;
  /** The profile whose construction geometry places the face, when `performConstruction` asks for it. */
  readonly construction: FaceProfile | undefined;
}

interface MetricItem {
  name: MetricName;
  score: number;
  complianceStatus?: string;
  category: string;
}

interface FaceOutput {
  id: string;
  isCompliant?: boolean;
  imageData?: string;
  features: Array<{ name: string; x: number; y: number }>;
  metrics?: MetricItem[];
}

/**
 * `POST /analyzeImage`: for each image, the faces kept by its detection options and, per face and per
 * requested output, the metrics, the profile's compliance, the eye positions and, with
 * `performConstruction`, the constructed image, whose own analysis then gives every result of that
 * output (docs/face-analysis.md).
 *
 * @example
 * const { images } = await analyzeImages(engine, {
 *   images: [{ id: 'a', input: { imageData }, output: [{ id: 'o', metrics: ['SHARPNESS'] }] }],
 * });
 * @throws {ApiError} 400 -5 (base64), -6 (any other bad value: parameters, profile, metric name, undecodable image)
 */
export async function analyzeImages(
  engine: FaceEngine,
  body: AnalyzeImageRequest,
): Promise<{ images: Array<{ id: string; faces?: Array<{ output: FaceOutput[] }> }> }> {
  // Every request problem is found before any image is analysed.
  const plans = body.images.map((image, i) => {
    const field = `images[${i}].input`;
    const { input } = image;
    const options = detectionOptions(
      {
        rotation: input.rotation,
        sensitivity: input.faceSensitivity,
        granularity: input.faceGranularity,
        minSize: input.faceMinimumSize,
        maxSize: input.faceMaximumSize,
        mode: input.faceDetectionMode,
      },
      field,
      {
        sensitivity: 'faceSensitivity',
        granularity: 'faceGranularity',
        minSize: 'faceMinimumSize',
        maxSize: 'faceMaximumSize',
        mode: 'faceDetectionMode',
      },
    );
    const outputs = image.output.map((output, j) => outputPlan(output, `images[${i}].output[${j}]`));
    return { id: image.id, bytes: decodeBase64(input.imageData, `${field}.imageData`), options, outputs, field };
  });

  const images = await Promise.all(
    plans.map(async (plan) => {
      const analysis = await analyze(engine, plan.bytes, plan.options.rotation, `${plan.field}.imageData`);
      const faces = selectFaces(analysis.faces, plan.options, analysis.width, analysis.height);
      if (faces.length === 0) return { id: plan.id };
      const results = await Promise.all(
        faces.map(async (face) => ({
          output: await Promise.all(
            plan.outputs.map((output) => faceOutput(engine, plan.bytes, plan.options.rotation, face, output)),
          ),
        })),
      );
      return { id: plan.id, faces: results };
    }),
  );
  return { images };
}

function outputPlan(output: AnalyzeImageRequest['images'][number]['output'][number], field: string): OutputPlan {
  const profile =
    output.profileXml === undefined ? undefined : requireProfile(output.profileXml, `${field}.profileXml`);
  if (output.performConstruction === true && profile === undefined)
    throw invalidValue(`${field}.performConstruction needs a profileXml (its construction geometry)`);
  const asked = output.metrics ?? [];
  const unknown = asked.filter((name) => !isMetricName(name));
  if (unknown.length > 0)
    throw invalidValue(
      `${field}.metrics: unknown metric ${unknown.map((n) => `'${n}'`).join(', ')} (docs/face-analysis.md#metrics lists them)`,
    );
  const names = [...(profile?.rules.map((r) => r.metric) ?? []), ...asked.filter(isMetricName)];
  return {
    id: output.id,
    report:
      profile === undefined && output.metrics === undefined
        ? undefined
        : { metrics: names.filter((name, k) => names.indexOf(name) === k), profile },
    construction: output.performConstruction === true ? profile : undefined,
  };
}

/**
 * One image through the face worker with the quality pass (no embeddings); an image that cannot be
 * decoded is a 400 -6 naming `field`.
 *
 * @example
 * const analysis = await analyze(engine, bytes, 0, 'frames[3].data');
 */
export function analyze(
  engine: FaceEngine,
  bytes: Uint8Array,
  rotation: Rotation,
  field: string,
): Promise<WorkerAnalysis> {
  return fromRequestImage(field, engine.analyze(bytes, NO_EMBEDDINGS, { quality: true, rotation }));
}

async function faceOutput(
  engine: FaceEngine,
  bytes: Uint8Array,
  rotation: Rotation,
  face: AnalyzedFace,
  plan: OutputPlan,
): Promise<FaceOutput> {
  let subject: AnalyzedFace | undefined = face;
  let imageData: string | undefined;
  if (plan.construction !== undefined) {
    const constructed = await constructFace(bytes, rotation, face.keyPoints, plan.construction);
    imageData = constructed.toString('base64');
    // The constructed image is analysed on its own; its largest face is the one placed there.
    const again = await engine.analyze(constructed, NO_EMBEDDINGS, { quality: true });
    subject = [...again.faces].sort((a, b) => b.box[2] - a.box[2])[0];
  }
  const scores: FaceMetrics = subject?.quality?.metrics ?? {};
  const result: FaceOutput = {
    id: plan.id,
    ...(imageData === undefined ? {} : { imageData }),
    features: (subject?.quality?.features ?? []).map((f) => ({
      name: f.name,
      x: roundTo(f.x, DIGITS),
      y: roundTo(f.y, DIGITS),
    })),
  };
  const { report } = plan;
  if (report?.profile !== undefined) {
    const { isCompliant, statuses } = evaluateCompliance(report.profile, scores);
    result.isCompliant = isCompliant;
    result.metrics = metricItems(report.metrics, scores, statuses);
  } else if (report !== undefined) {
    result.metrics = metricItems(report.metrics, scores, {});
  }
  return result;
}

/**
 * A metric that could not be measured has no score to report and is left out (a required one still
 * fails the profile).
 */
function metricItems(
  names: readonly MetricName[],
  scores: FaceMetrics,
  statuses: Partial<Record<MetricName, string>>,
): MetricItem[] {
  return names.flatMap((name) => {
    const score = scores[name];
    if (score === undefined || !Number.isFinite(score)) return [];
    const status = statuses[name];
    return [
      {
        name,
        score: roundTo(score, DIGITS),
        ...(status === undefined ? {} : { complianceStatus: status }),
        category: METRICS[name].category,
      },
    ];
  });
}

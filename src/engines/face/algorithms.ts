import { normalisedSum } from '../../lib/vectors.js';
import { PLAIN_VIEW, type CropView, type EmbeddingOptions, type FaceObservation } from './face-pipeline.js';

/** The spec's two face algorithms: F200 (fast) and F500 (most accurate). */
export type FaceAlgorithmName = 'F200' | 'F500';

export const FACE_ALGORITHM_NAMES: readonly FaceAlgorithmName[] = ['F200', 'F500'];

export interface FaceAlgorithm {
  readonly name: FaceAlgorithmName;
  readonly summary: string;
  /** What the pipeline must compute for this algorithm. */
  readonly embeddings: EmbeddingOptions;
  readonly dimensions: number;
  /** The evaluation variant (eval/faces.ts) this algorithm is; its calibration table comes from there. */
  readonly evalVariant: string;
  /** The template vector (unit length) of an analysed face. */
  templateVector(face: FaceObservation): Float32Array;
}

/** F500's views: the standard crop, its mirror, a 5% closer crop and its mirror. The first is F200's. */
export const F500_VIEWS: readonly CropView[] = [
  PLAIN_VIEW,
  { zoom: 1, mirrored: true },
  { zoom: 1.054, mirrored: false },
  { zoom: 1.054, mirrored: true },
];

/**
 * Chosen by measurement (reports/face-eval.md): both fit dlib's mean face (the chip faceRecognitionNet
 * was trained on) to a refined, sub-pixel FaceMesh (face-mesh-refiner.ts) and embed with face-api's
 * faceRecognitionNet on onnxruntime. F200 embeds one crop (the fast one); F500 averages four views of
 * it (mirror and a 5% closer framing): EER 1.17% -> 1.09% and FNMR at FMR 10^-3 6.3% -> 4.9% on the
 * dev set, at ~8 ms per extra view. F500's first view is F200's crop, so one F500 pass yields both
 * templates.
 */
export const FACE_ALGORITHMS: Readonly<Record<FaceAlgorithmName, FaceAlgorithm>> = {
  F200: {
    name: 'F200',
    summary: 'mean-shape aligned crop on the refined face mesh, faceRecognitionNet (128-d)',
    embeddings: { views: [PLAIN_VIEW], description: false },
    dimensions: 128,
    evalVariant: 'aligned',
    templateVector: firstView,
  },
  F500: {
    name: 'F500',
    summary:
      'four views of the mean-shape aligned crop on the refined face mesh (mirror, 5% closer framing), faceRecognitionNet averaged (128-d)',
    embeddings: { views: F500_VIEWS, description: false },
    dimensions: 128,
    evalVariant: 'aligned-4views',
    templateVector: (face) => normalisedSum(views(face, F500_VIEWS.length)),
  },
};

const MISSING_VIEWS = 'the pipeline did not compute the views this algorithm needs';

function views(face: FaceObservation, count: number): readonly Float32Array[] {
  if (face.recognitionViews.length < count) throw new Error(MISSING_VIEWS);
  return face.recognitionViews.slice(0, count);
}

function firstView(face: FaceObservation): Float32Array {
  const [first] = face.recognitionViews;
  if (first === undefined) throw new Error(MISSING_VIEWS);
  return first;
}

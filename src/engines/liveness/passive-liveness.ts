import { FACE_ALGORITHMS } from '../face/algorithms.js';
import { faceCalibration } from '../face/face-calibration.js';
import type { FaceEngine } from '../face/face-engine.js';
import type { AnalyzedFace, WorkerAnalysis } from '../face/face-analysis-types.js';
import type { CropView } from '../face/face-pipeline.js';
import { ImageDecodeError } from '../face/image-decoding.js';
import {
  DEFAULT_SUBJECT_RULES,
  selectSubjectFace,
  withinDetectionBounds,
  type SubjectRules,
} from '../face/face-selection.js';
import { levelThreshold, padCalibration, scoreFrr } from './pad-calibration.js';
import { DEFAULT_PAD_MODEL, type PadModelKind } from './pad-model-kind.js';
import { facePLive } from './pad-score.js';
import { lightTrace, lightTraceVerdict } from './light-trace.js';
import { scoreAtFmrScore } from '../scoring/score-calibration.js';
import type { IadSignalName, SignalMode } from './iad-signal-names.js';
import { iadSignals, type IadSignal } from './iad-signals.js';
import { LivenessCode, LivenessInputError } from './liveness-input-error.js';
import type { LivenessRequest } from './liveness-request.js';
import { median } from '../../lib/median.js';
import { roundTo } from '../../lib/rounding.js';

export type LivenessDecision =
  | 'LIVE'
  | 'SPOOF'
  | 'TOO_BLURRY'
  | 'FACE_TOO_LOW_RESOLUTION'
  | 'TOO_LOW_FACIAL_DYNAMIC_RANGE'
  | 'UNABLE_TO_CALCULATE_LIVENESS'
  | 'TIMESTAMP_TOO_OLD'
  | 'TIMESTAMP_IN_FUTURE';

export interface LivenessResult {
  decision: LivenessDecision;
  score: number;
  score_frr: number;
  feedback: string[];
  decision_info: {
    IAD: { signals: Record<IadSignalName, IadSignal> };
    PAD: {
      status: 'PASS' | 'FAIL' | 'ERROR';
      spoof_type_probability: Record<'2D_MASK' | '3D_MASK' | 'PHOTO' | 'SCREEN' | 'OTHER', number>;
    };
  };
}

/**
 * Quality gates, each measured on the subject face. Values measured on the packaged test portraits
 * (docs/liveness.md): sharpness 2.1-2.6 sharp, 1.5-1.7 after a Gaussian blur of sigma 2, ~0.9 at
 * sigma 4; dynamic range 155-165 in good light, 39-42 at a quarter of the exposure, 31-33 washed out.
 * The dynamic-range gate runs first: low contrast also lowers the Laplacian.
 */
export const QUALITY_GATES = {
  /** The PAD crop puts ~40 px between the eyes: a smaller face would be upsampled and lose the texture PAD reads. */
  minInterEyePixels: 40,
  /** log10(1 + variance of the Laplacian) of the normalised face crop. */
  minSharpness: 1.2,
  /** Luma spread (2nd to 98th percentile) of the face crop, 0..255. */
  minDynamicRange: 50,
} as const;

/**
 * Subject rules without the size floor: liveness reports a small face as its own decision
 * (FACE_TOO_LOW_RESOLUTION, FACE_TOO_FAR).
 */
export const ANY_SIZE: SubjectRules = { ...DEFAULT_SUBJECT_RULES, minInterEyePixels: 0 };

export interface LivenessContext {
  readonly now: number;
  readonly maxAgeMs: number;
  readonly maxSkewMs: number;
  readonly iadModes: ReadonlyMap<string, SignalMode>;
  /** The PAD model whose P(live) decides (DEFAULT_PAD_MODEL when unset); the face engine must run it. */
  readonly padModel?: PadModelKind;
}

/**
 * The context a decision is taken in, from the server's liveness settings (docs/configuration.md):
 * package age and clock-skew limits, the IAD signal modes and the PAD model.
 *
 * @example
 * decidePassiveLiveness(request, frames, livenessContext(config, Date.now()));
 */
export function livenessContext(
  settings: {
    readonly livenessMaxAgeMs: number;
    readonly livenessMaxSkewMs: number;
    readonly iadModes: ReadonlyMap<string, SignalMode>;
    readonly padModel?: PadModelKind;
  },
  now: number,
): LivenessContext {
  return {
    now,
    maxAgeMs: settings.livenessMaxAgeMs,
    maxSkewMs: settings.livenessMaxSkewMs,
    iadModes: settings.iadModes,
    padModel: settings.padModel ?? DEFAULT_PAD_MODEL,
  };
}

/**
 * Analyses every frame of a request in the face engine (in parallel): faces, PAD texture features,
 * thumbnails, and the identity embedding views given (by default F200's with several frames, where the
 * face-swap signal compares them; onboarding asks for F500's to take the template in the same pass).
 * A frame whose header reads but whose data the decoder cannot read (a truncated file) is refused with 139.
 * libjpeg's warnings (e.g. corrupt entropy-coded data) are not refusals: some phones' files carry them,
 * and such a frame is assessed as far as it decodes.
 *
 * @example
 * const frames = await analyzeFrames(engine, request);
 * const withTemplates = await analyzeFrames(engine, request, FACE_ALGORITHMS.F500.embeddings.views);
 * @throws {LivenessInputError} 139 (image could not be parsed for analysis) for a frame that does not decode
 */
export function analyzeFrames(
  engine: FaceEngine,
  request: LivenessRequest,
  views: readonly CropView[] = request.frames.length > 1 ? FACE_ALGORITHMS.F200.embeddings.views : [],
): Promise<WorkerAnalysis[]> {
  const options = { liveness: true, rotation: request.rotation };
  return Promise.all(
    request.frames.map(async (frame, i) => {
      try {
        return await engine.analyze(frame.bytes, { views, description: false }, options);
      } catch (error) {
        if (!(error instanceof ImageDecodeError)) throw error;
        // The header was read when the request was parsed; the data behind it is what failed.
        throw new LivenessInputError(
          LivenessCode.unparsableImage,
          `frames[${i}]: the image data could not be decoded (truncated or corrupt)`,
        );
      }
    }),
  );
}

/**
 * Passive liveness of analysed frames: the quality gates, then the PAD model of the context (mean P(live)
 * over the frames against the model's threshold for the security level, pad-calibration.ts) and the
 * injection signals in DECISIONING mode.
 *
 * @example
 * const result = decidePassiveLiveness(request, await analyzeFrames(engine, request), context);
 * result.decision; // 'LIVE'
 */
export function decidePassiveLiveness(
  request: LivenessRequest,
  frames: readonly WorkerAnalysis[],
  context: LivenessContext,
): LivenessResult {
  const feedback = new Set<string>();
  const calibration = padCalibration(context.padModel ?? DEFAULT_PAD_MODEL);
  const subjects = frames.map((frame) => subjectOf(frame, request, feedback));
  const signals = iadSignals(
    {
      frames,
      subjects,
      frameBytes: request.frames.map((f) => f.bytes),
      deviceNames: request.deviceNames,
      sameIdentityScore: sameIdentityScore(),
      lightTrace: request.workflow.method === 'charlie' ? lightTraceStatus(request, subjects) : undefined,
    },
    context.iadModes,
  );
  const result = (
    decision: LivenessDecision,
    score: number,
    pLive: number | undefined,
    padStatus: 'PASS' | 'FAIL' | 'ERROR',
  ): LivenessResult => ({
    decision,
    score,
    score_frr: pLive === undefined ? 0 : roundTo(scoreFrr(pLive, calibration), 4),
    feedback: [...feedback],
    decision_info: { IAD: { signals }, PAD: { status: padStatus, spoof_type_probability: spoofTypes(pLive) } },
  });

  const stamp = request.packageTimestamp;
  if (stamp !== undefined && context.now - stamp > context.maxAgeMs)
    return result('TIMESTAMP_TOO_OLD', -1, undefined, 'ERROR');
  if (stamp !== undefined && stamp - context.now > context.maxSkewMs)
    return result('TIMESTAMP_IN_FUTURE', -1, undefined, 'ERROR');
  const faces = subjects.filter(
    (s): s is AnalyzedFace & { liveness: NonNullable<AnalyzedFace['liveness']> } => s?.liveness !== undefined,
  );
  if (faces.length === 0) return result('UNABLE_TO_CALCULATE_LIVENESS', -1, undefined, 'ERROR');
  if (Math.max(...faces.map((f) => f.liveness.interEyePixels)) < QUALITY_GATES.minInterEyePixels) {
    feedback.add('FACE_TOO_FAR');
    return result('FACE_TOO_LOW_RESOLUTION', -1, undefined, 'ERROR');
  }
  // The gates read the frames' upper median (of an even count, the upper middle: a value a frame has).
  const frameMedian = (values: readonly number[]) => median(values, 'upper');
  if (frameMedian(faces.map((f) => f.liveness.dynamicRange)) < QUALITY_GATES.minDynamicRange) {
    feedback.add(
      frameMedian(faces.map((f) => f.liveness.brightness)) < 128 ? 'INSUFFICIENT_LIGHTING' : 'LIGHT_TOO_BRIGHT',
    );
    return result('TOO_LOW_FACIAL_DYNAMIC_RANGE', -1, undefined, 'ERROR');
  }
  if (frameMedian(faces.map((f) => f.liveness.sharpness)) < QUALITY_GATES.minSharpness) {
    feedback.add('TOO_MUCH_BLUR');
    return result('TOO_BLURRY', -1, undefined, 'ERROR');
  }

  const pLive = faces.reduce((sum, f) => sum + facePLive(f.liveness, calibration.model), 0) / faces.length;
  const threshold = levelThreshold(request.workflow.securityLevel, calibration);
  const padPass = pLive >= threshold;
  // foxtrot and charlie require the multi-frame signals to pass, whatever their configured mode;
  // charlie also decides on the light trace when it reached a verdict (STRICT always reaches one).
  const mustPass: readonly IadSignalName[] =
    request.workflow.method === 'hotel' ? [] : ['image_similarity_detection', 'face_swap_detection'];
  // They also refuse a sequence without a camera's fresh sensor noise (a FAIL; its ERROR does not decide).
  const decides = (name: IadSignalName, s: IadSignal) =>
    s.mode === 'DECISIONING' ||
    mustPass.includes(name) ||
    (name === 'optical_analysis' && request.workflow.method === 'charlie') ||
    (name === 'temporal_noise_analysis' && request.workflow.method !== 'hotel');
  const iadFail = (Object.entries(signals) as Array<[IadSignalName, IadSignal]>).some(
    ([name, s]) => decides(name, s) && (s.status === 'FAIL' || (mustPass.includes(name) && s.status === 'ERROR')),
  );
  if (!padPass) feedback.add('PRESENTATION_ATTACK_SUSPECTED');
  if (iadFail) feedback.add('INJECTION_ATTACK_SUSPECTED');
  const live = padPass && !iadFail;
  return result(live ? 'LIVE' : 'SPOOF', live ? 100 : 0, pLive, padPass ? 'PASS' : 'FAIL');
}

/** The light trace over the frames with both a face and a screen colour (charlie workflows). */
function lightTraceStatus(
  request: LivenessRequest,
  subjects: ReadonlyArray<AnalyzedFace | undefined>,
): 'PASS' | 'FAIL' | 'ERROR' {
  const pairs = request.frames.flatMap((frame, i) => {
    const rgb = subjects[i]?.liveness?.meanRgb;
    return rgb && frame.screenColour ? [{ face: rgb, screen: frame.screenColour }] : [];
  });
  if (pairs.length < 3) return 'ERROR';
  const verdict = lightTraceVerdict(
    lightTrace(
      pairs.map((p) => p.face),
      pairs.map((p) => p.screen),
    ),
    request.lightTraceMode === 'STRICT',
  );
  return verdict === 'INCONCLUSIVE' ? 'ERROR' : verdict;
}

/**
 * The usable face of a frame: the subject rule (face-selection.ts, without its size floor) over the faces
 * within the request's size bounds and confidence floor, noting why a frame has none.
 *
 * @example
 * const face = subjectOf(frame, request, feedback); // undefined and MULTIPLE_FACES_DETECTED for two equal faces
 */
export function subjectOf(
  frame: WorkerAnalysis,
  request: LivenessRequest,
  feedback: Set<string>,
): AnalyzedFace | undefined {
  const bounds = { minSize: request.faceMinSize, maxSize: request.faceMaxSize, minScore: request.faceMinScore };
  const sized = withinDetectionBounds(frame.faces, bounds, frame.width, frame.height);
  const subject = selectSubjectFace(sized, frame, ANY_SIZE);
  if (subject.ok) return subject.face;
  feedback.add(subject.reason === 'ambiguous-faces' ? 'MULTIPLE_FACES_DETECTED' : 'NO_FACE_DETECTED');
  return undefined;
}

/**
 * How P(attack) splits across attack types. Neither PAD model types attacks (the ONNX model's third output
 * stays under 0.01 on every dev face, reports/pad-models.md), the dev attacks carry no type label and are
 * nearly all prints and paper masks, so no signal could be measured telling a screen from a photo (the moiré
 * measure: AUC 0.45 live against spoof, reports/pad-train.md): the 2-D recapture types share P(attack)
 * equally. 3-D masks and other attacks are not modelled: 0 means "not estimated", not "excluded"
 * (docs/liveness.md).
 */
export function spoofTypes(
  pLive: number | undefined,
): LivenessResult['decision_info']['PAD']['spoof_type_probability'] {
  const attack = pLive === undefined ? 0 : roundTo((1 - pLive) / 3, 4);
  return { '2D_MASK': attack, '3D_MASK': 0, PHOTO: attack, SCREEN: attack, OTHER: 0 };
}

/** The F200 cosine at which two faces are the same person at FMR 10^-2 (dev-set calibration). */
export function sameIdentityScore(): number {
  return scoreAtFmrScore(faceCalibration('F200'), 2);
}

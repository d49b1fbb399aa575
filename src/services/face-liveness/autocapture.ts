import type { AnalyzedFace, WorkerAnalysis } from '../../engines/face/face-analysis-types.js';
import { cropTransform, sampleCrop, type CropGeometry } from '../../engines/face/face-alignment.js';
import { decodeImage, DEFAULT_DECODE_OPTIONS } from '../../engines/face/image-decoding.js';
import type { Rotation } from '../../engines/face/rotation.js';
import sharp from 'sharp';
import { selectSubjectFace } from '../../engines/face/face-selection.js';
import type { LivenessRequest } from '../../engines/liveness/liveness-request.js';
import { ANY_SIZE, QUALITY_GATES } from '../../engines/liveness/passive-liveness.js';
import type { WorkflowData } from './schemas.js';

/**
 * Autocapture feedback limits for a selfie frame (docs/liveness.md). Positions are shares of the frame
 * size; pose limits in degrees; brightness is the face's mean luma 0..255.
 */
export const CAPTURE_LIMITS = {
  minShorterSide: 480,
  minFaceWidth: 0.25,
  maxFaceWidth: 0.8,
  centreX: [0.35, 0.65],
  centreY: [0.3, 0.7],
  maxPoseDegrees: 20,
  minBrightness: 60,
  maxBrightness: 200,
} as const;

export interface FrameFeedback {
  readonly index: number;
  readonly feedback: string[];
  /** The subject face (face-selection.ts), when the frame has one. */
  readonly face: AnalyzedFace | undefined;
}

/**
 * What a capture app should tell the user about one frame: the autocapture codes of Doc 2 that apply
 * (empty when the frame is fit to capture). GLASSES_PRESENT is not measured (no model here detects glasses).
 *
 * @example
 * frameFeedback(analysis, 0).feedback; // ['FACE_TOO_FAR', 'INSUFFICIENT_LIGHTING']
 */
export function frameFeedback(frame: WorkerAnalysis, index: number): FrameFeedback {
  const feedback: string[] = [];
  if (Math.min(frame.width, frame.height) < CAPTURE_LIMITS.minShorterSide) feedback.push('IMAGE_RESOLUTION_TOO_LOW');
  const subject = selectSubjectFace(frame.faces, frame, ANY_SIZE);
  if (!subject.ok)
    return {
      index,
      feedback: [...feedback, subject.reason === 'ambiguous-faces' ? 'MULTIPLE_FACES_DETECTED' : 'NO_FACE_DETECTED'],
      face: undefined,
    };
  const face = subject.face;
  const [x, y, w, h] = face.box;
  const width = w / frame.width;
  if (width < CAPTURE_LIMITS.minFaceWidth) feedback.push('FACE_TOO_FAR');
  if (width > CAPTURE_LIMITS.maxFaceWidth) feedback.push('FACE_TOO_CLOSE');
  const cx = (x + w / 2) / frame.width;
  const cy = (y + h / 2) / frame.height;
  if (cx < CAPTURE_LIMITS.centreX[0]) feedback.push('FACE_ON_LEFT');
  if (cx > CAPTURE_LIMITS.centreX[1]) feedback.push('FACE_ON_RIGHT');
  if (cy < CAPTURE_LIMITS.centreY[0]) feedback.push('FACE_TOO_HIGH');
  if (cy > CAPTURE_LIMITS.centreY[1]) feedback.push('FACE_TOO_LOW');
  const degrees = (r: number) => Math.abs((r * 180) / Math.PI);
  if (
    Math.max(degrees(face.pose.yaw), degrees(face.pose.pitch), degrees(face.pose.roll)) > CAPTURE_LIMITS.maxPoseDegrees
  )
    feedback.push('INVALID_POSE');
  const measures = face.liveness;
  if (measures) {
    if (measures.brightness < CAPTURE_LIMITS.minBrightness) feedback.push('INSUFFICIENT_LIGHTING');
    if (measures.brightness > CAPTURE_LIMITS.maxBrightness) feedback.push('LIGHT_TOO_BRIGHT');
    if (measures.sharpness < QUALITY_GATES.minSharpness) feedback.push('TOO_MUCH_BLUR');
  }
  return { index, feedback, face };
}

/**
 * The frame to capture: the one with a face and the fewest feedback codes, the sharpest among equals.
 *
 * @example
 * const best = bestFrame(frames.map(frameFeedback));
 */
export function bestFrame(frames: readonly FrameFeedback[]): FrameFeedback | undefined {
  const sharpness = (f: FrameFeedback) => f.face?.liveness?.sharpness ?? 0;
  return frames
    .filter((f) => f.face !== undefined)
    .sort((a, b) => a.feedback.length - b.feedback.length || sharpness(b) - sharpness(a) || a.index - b.index)[0];
}

/** A constructed portrait: 480×480, eyes level at 40% of the height, the head with margin around it. */
const PORTRAIT_SIZE = 480;
const PORTRAIT_GEOMETRY: CropGeometry = { eyeY: 0.4, eyeToMouth: 0.2, levelAboveDegrees: 0 };

/**
 * Builds a frontal portrait from the captured frame: rotated so the eyes are level, scaled and centred
 * on the face (JPEG, quality 90).
 *
 * @example
 * const jpeg = await constructPortrait(frameBytes, best.face!, 90);
 */
export async function constructPortrait(
  frameBytes: Uint8Array,
  face: AnalyzedFace,
  rotation: Rotation,
): Promise<Buffer> {
  const image = await decodeImage(frameBytes, { ...DEFAULT_DECODE_OPTIONS, rotation });
  const crop = sampleCrop(image, cropTransform(face.keyPoints, PORTRAIT_SIZE, PORTRAIT_GEOMETRY));
  return sharp(Buffer.from(Uint8Array.from(crop, (v) => Math.round(v))), {
    raw: { width: PORTRAIT_SIZE, height: PORTRAIT_SIZE, channels: 3 },
  })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** The `autocapture_result` of `/analyze`. */
export interface AutocaptureResult {
  /** base64 JPEG: the best frame as sent, or the portrait built from it; '' when no frame has a face. */
  captured_frame: string;
  captured_frame_is_constructed: boolean;
  /** The best frame's feedback codes, or every frame's (each once) when none has a face. */
  feedback: string[];
}

/**
 * The autocapture part of `/analyze`: the best of the analysed frames ({@link bestFrame}), as sent or,
 * when `perform_construction` asks for it, as a constructed portrait, with its feedback codes.
 *
 * @example
 * const autocapture = await autocaptureResult(frames, request, body.video.workflow_data);
 * autocapture.feedback; // [] when the captured frame is fit
 */
export async function autocaptureResult(
  frames: readonly WorkerAnalysis[],
  request: LivenessRequest,
  data: WorkflowData,
): Promise<AutocaptureResult> {
  const best = bestFrame(frames.map(frameFeedback));
  const constructFrom = data.perform_construction === true ? best?.face : undefined;
  let captured = '';
  if (best !== undefined) {
    captured =
      constructFrom === undefined
        ? frameAt(data.frames, best.index).data
        : (
            await constructPortrait(frameAt(request.frames, best.index).bytes, constructFrom, request.rotation)
          ).toString('base64');
  }
  return {
    captured_frame: captured,
    captured_frame_is_constructed: constructFrom !== undefined,
    feedback:
      best?.feedback ??
      frames.flatMap((f, i) => frameFeedback(f, i).feedback).filter((code, i, all) => all.indexOf(code) === i),
  };
}

/** The frame `bestFrame` chose: the request and its analyses have one entry per frame, in order. */
function frameAt<T>(frames: readonly T[], index: number): T {
  const frame = frames[index];
  if (frame === undefined) throw new Error(`frame ${index} of ${frames.length} chosen for capture does not exist`);
  return frame;
}

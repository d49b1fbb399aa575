import sharp, { type Metadata } from 'sharp';
import { decodeBase64 } from '../../crypto/base64.js';
import { checkDetectionParameters, type DetectionProblem } from '../face/detection-parameters.js';
import { swapsSides, type Rotation } from '../face/rotation.js';
import { LivenessCode, LivenessInputError } from './liveness-input-error.js';
import { screenColourOf, type Rgb } from './light-trace.js';
import { MAX_FRAMES, parseWorkflow, type Workflow } from './workflows.js';

/**
 * Frames smaller than this (shorter side) cannot show a face at a usable size; larger ones are refused as
 * oversized.
 */
const MIN_SIDE = 120;
const MAX_SIDE = 4096;

/** The detection fields of `workflow_data`, as the messages name them. */
const DETECTION_FIELDS = {
  minSize: 'face_detection_min_size',
  maxSize: 'face_detection_max_size',
  sensitivity: 'face_detection_sensitivity',
  granularity: 'face_detection_granularity',
  mode: 'face_detection_mode',
  rotation: 'rotation',
} as const;

/** The spec's 400 code for each detection-parameter problem. */
const DETECTION_CODES: Readonly<Record<DetectionProblem, number>> = {
  minSize: LivenessCode.minSizeRange,
  maxSize: LivenessCode.maxSizeRange,
  minAboveMax: LivenessCode.minAboveMax,
  sensitivity: LivenessCode.sensitivityRange,
  granularity: LivenessCode.granularityRange,
  mode: LivenessCode.detectionMode,
  rotation: LivenessCode.rotation,
};

/** One frame as a client sends it; `data` is read by the request's frame reader (base64 by default). */
export interface LivenessFrameInput {
  readonly data: string;
  readonly tags?: readonly string[] | number | undefined;
  readonly timestamp: number;
}

/**
 * The `workflow_data` of a liveness package (spec Doc 2 A), as the face-liveness and onboarding services
 * receive it.
 */
export interface LivenessInput {
  readonly workflow: string;
  readonly frames: readonly LivenessFrameInput[];
  readonly intelligentLiveness?: { readonly lightTraceMode?: string | undefined } | undefined;
  readonly security_level?: number | undefined;
  readonly timestamp?: number | undefined;
  readonly face_detection_granularity?: number | undefined;
  readonly face_detection_sensitivity?: number | undefined;
  readonly face_detection_min_size?: number | undefined;
  readonly face_detection_max_size?: number | undefined;
  readonly face_detection_mode?: string | undefined;
  readonly rotation?: number | undefined;
}

/** Turns a frame's `data` into image bytes: base64 in the face-liveness service, an envelope in onboarding. */
export type FrameReader = (data: string, field: string) => Buffer;

const base64Frame: FrameReader = (data, field) => decodeBase64(data, field);

export interface LivenessFrame {
  readonly bytes: Buffer;
  readonly timestamp: number;
  readonly tags: readonly string[];
  /** The colour the screen showed for this frame (charlie light trace), from its tags. */
  readonly screenColour: Rgb | undefined;
}

export interface LivenessRequest {
  readonly workflow: Workflow;
  readonly frames: readonly LivenessFrame[];
  readonly width: number;
  readonly height: number;
  readonly rotation: Rotation;
  readonly packageTimestamp: number | undefined;
  readonly lightTraceMode: 'NORMAL' | 'STRICT';
  /** Face size bounds as shares of the shorter image side. */
  readonly faceMinSize: number;
  readonly faceMaxSize: number;
  /**
   * Least detector confidence a face needs, from `face_detection_sensitivity` s: 0.3 + 0.6·(1 - s),
   * so s = 1 keeps everything the detector reports (its own floor is 0.3) and s = 0 only near-certain
   * faces; 0.3 when not given. `face_detection_granularity` is checked but has no effect: BlazeFace
   * detects in one pass, with no scale pyramid to step.
   */
  readonly faceMinScore: number;
  readonly deviceNames: readonly string[];
}

/**
 * Checks a face-liveness request beyond its JSON schema, in the order a client would fix them, and
 * reads each frame's header (format and size) without decoding it.
 *
 * @example
 * const request = await parseLivenessRequest(body.video.workflow_data, body.video.meta_data);
 * @throws {LivenessInputError} with the spec's 400 code (LivenessCode.invalidValue, -7, -8, 118-122, 125, 139,
 *   141, 152, 153, 155, 312)
 */
export async function parseLivenessRequest(
  data: LivenessInput,
  meta: Readonly<Record<string, unknown>> | undefined,
  readFrame: FrameReader = base64Frame,
): Promise<LivenessRequest> {
  const workflow = parseWorkflow(data.workflow, data.security_level);
  const detection = checkDetectionParameters(
    {
      minSize: data.face_detection_min_size,
      maxSize: data.face_detection_max_size,
      sensitivity: data.face_detection_sensitivity,
      granularity: data.face_detection_granularity,
      mode: data.face_detection_mode,
      rotation: data.rotation,
    },
    { names: DETECTION_FIELDS, fail: (problem, message) => new LivenessInputError(DETECTION_CODES[problem], message) },
  );
  const { rotation } = detection;
  const lightTraceMode = data.intelligentLiveness?.lightTraceMode ?? 'NORMAL';
  if (lightTraceMode !== 'NORMAL' && lightTraceMode !== 'STRICT')
    throw new LivenessInputError(
      LivenessCode.invalidValue,
      `intelligentLiveness.lightTraceMode must be NORMAL or STRICT (got '${lightTraceMode}')`,
    );

  if (data.frames.length < workflow.minFrames || data.frames.length > MAX_FRAMES) {
    throw new LivenessInputError(
      LivenessCode.invalidValue,
      `workflow ${workflow.name} takes ${workflow.minFrames} to ${MAX_FRAMES} frames (got ${data.frames.length})`,
    );
  }
  let previous = -Infinity;
  data.frames.forEach((frame, i) => {
    if (!Number.isFinite(frame.timestamp) || frame.timestamp < 0 || frame.timestamp < previous) {
      throw new LivenessInputError(
        LivenessCode.timestampInvalid,
        `frames[${i}].timestamp must be at least 0 and exceed the previous frame's (got ${frame.timestamp} after ${previous})`,
      );
    }
    if (frame.timestamp === previous)
      throw new LivenessInputError(
        LivenessCode.interframeTime,
        `frames[${i}]: the time between frames must be greater than 0`,
      );
    previous = frame.timestamp;
  });

  const frames: LivenessFrame[] = [];
  let size: { width: number; height: number } | undefined;
  for (const [i, frame] of data.frames.entries()) {
    const bytes = readFrame(frame.data, `frames[${i}].data`);
    const header = await imageHeader(bytes, i);
    const [width, height] = swapsSides(rotation) ? [header.height, header.width] : [header.width, header.height];
    if (size && (size.width !== width || size.height !== height)) {
      throw new LivenessInputError(
        LivenessCode.sizesDiffer,
        `frames[${i}] is ${width}×${height}; every frame must match the first (${size.width}×${size.height})`,
      );
    }
    size = { width, height };
    const tags = Array.isArray(frame.tags) ? frame.tags : [];
    frames.push({ bytes, timestamp: frame.timestamp, tags, screenColour: screenColourOf(tags) });
  }
  if (workflow.method === 'charlie') {
    const colours = frames.map((f) => f.screenColour).filter((c): c is Rgb => c !== undefined);
    if (colours.length < 3 || new Set(colours.map((c) => c.join(','))).size < 2) {
      throw new LivenessInputError(
        LivenessCode.invalidValue,
        `workflow ${workflow.name} needs at least 3 frames tagged with the screen colour (SCREEN_COLOR_RRGGBB or SCREEN_RED/GREEN/BLUE/WHITE), in at least 2 colours`,
      );
    }
  }
  const deviceNames = ['client_device_brand', 'client_device_model', 'client_os_version', 'client_version']
    .map((key) => meta?.[key])
    .filter((v): v is string => typeof v === 'string' && v !== '');
  // Every workflow takes at least one frame (checked above), so the first frame has set the size.
  if (size === undefined) throw new LivenessInputError(LivenessCode.invalidValue, 'a liveness request needs a frame');
  return {
    workflow,
    frames,
    width: size.width,
    height: size.height,
    rotation,
    packageTimestamp: data.timestamp,
    lightTraceMode,
    faceMinSize: detection.minSize,
    faceMaxSize: detection.maxSize,
    faceMinScore: detection.minScore,
    deviceNames,
  };
}

/** Format and size from the image header: JPEG and PNG are accepted. */
async function imageHeader(bytes: Buffer, index: number): Promise<{ width: number; height: number }> {
  const format = sniffFormat(bytes);
  if (format === undefined)
    throw new LivenessInputError(LivenessCode.imageDataInvalid, `frames[${index}].data is not image data`);
  if (format !== 'jpeg' && format !== 'png')
    throw new LivenessInputError(
      LivenessCode.imageFormat,
      `frames[${index}] is ${format.toUpperCase()}; frames must be JPEG or PNG`,
    );
  let meta: Metadata;
  try {
    meta = await sharp(bytes).metadata();
  } catch {
    throw new LivenessInputError(
      LivenessCode.unparsableImage,
      `frames[${index}]: the ${format.toUpperCase()} data could not be parsed`,
    );
  }
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (!width || !height)
    throw new LivenessInputError(LivenessCode.unparsableImage, `frames[${index}]: the image has no size`);
  if (Math.min(width, height) < MIN_SIDE || Math.max(width, height) > MAX_SIDE) {
    throw new LivenessInputError(
      LivenessCode.imageSizeInvalid,
      `frames[${index}] is ${width}×${height}; frames must be ${MIN_SIDE} to ${MAX_SIDE} pixels a side (480×640 recommended)`,
    );
  }
  return { width, height };
}

function sniffFormat(b: Buffer): string | undefined {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (b.length >= 4 && b.toString('latin1', 0, 4) === 'GIF8') return 'gif';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  if (b.length >= 4 && (b.toString('latin1', 0, 4) === 'II*\u0000' || b.toString('latin1', 0, 4) === 'MM\u0000*'))
    return 'tiff';
  if (b.length >= 2 && b.toString('latin1', 0, 2) === 'BM') return 'bmp';
  return undefined;
}

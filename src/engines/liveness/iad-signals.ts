import type { AnalyzedFace, WorkerAnalysis } from '../face/face-analysis-types.js';
import { meanAbsoluteDifference } from './frame-measures.js';
import { dot } from '../../lib/vectors.js';
import type { IadSignalName, SignalMode } from './iad-signal-names.js';
import { facialDeformation, facialDeformationStatus } from './facial-deformation.js';
import { planarMotionStatus } from './scene-parallax.js';
import { motionFrames, sequenceMotion } from './sequence-motion.js';
import { temporalNoiseStatus } from './temporal-noise.js';

export type SignalStatus = 'PASS' | 'FAIL' | 'ERROR';

export interface IadSignal {
  readonly status: SignalStatus;
  readonly mode: SignalMode;
}

/**
 * Default mode per signal. The ones computed from the request and validated decide; the ones that
 * need the capture device's own attestation (code injection, rooting, sensors) or are not computed yet
 * stay REPORT_ONLY with status ERROR (docs/liveness.md); `optical_analysis` (the light trace) is
 * computed for charlie workflows, which require it. `VERIPORT_IAD_MODES` overrides.
 */
export const DEFAULT_MODES: Readonly<Record<IadSignalName, SignalMode>> = {
  code_injection_detection: 'REPORT_ONLY',
  emulator_detection: 'DECISIONING',
  face_swap_detection: 'DECISIONING',
  // A live user need not blink or speak within a few frames, nor move against the background.
  facial_motion_analysis: 'REPORT_ONLY',
  image_similarity_detection: 'DECISIONING',
  optical_analysis: 'REPORT_ONLY',
  planar_motion_detection: 'REPORT_ONLY',
  rooted_mobile_detection: 'REPORT_ONLY',
  sensor_detection: 'REPORT_ONLY',
  spectral_analysis: 'REPORT_ONLY',
  suspicious_border_detection: 'REPORT_ONLY',
  // Decides in foxtrot and charlie whatever its mode (passive-liveness.ts); reported elsewhere, since a
  // camera whose pipeline denoises strongly could fail it (docs/liveness.md).
  temporal_noise_analysis: 'REPORT_ONLY',
  virtual_camera_detection: 'DECISIONING',
};

// Names virtual-camera drivers and emulators report as device brand or model (lower case, substrings).
const VIRTUAL_CAMERAS = [
  'obs virtual',
  'obs-camera',
  'manycam',
  'xsplit',
  'snap camera',
  'e2esoft',
  'vcam',
  'camtwist',
  'splitcam',
  'droidcam',
  'epoccam',
  'virtual camera',
  'virtualcam',
  'fake webcam',
  'v4l2loopback',
];
const EMULATORS = [
  'sdk_gphone',
  'android sdk built for',
  'google_sdk',
  'emulator',
  'simulator',
  'genymotion',
  'bluestacks',
  'noxplayer',
  'nox player',
  'ldplayer',
  'memu',
  'andy os',
  'goldfish',
  'ranchu',
  'vbox86',
];

/**
 * Frames whose whole picture and face crop change by less than this (mean absolute difference of
 * 16×16 luma thumbnails, 0..255) are the same picture: a live camera always adds motion, blinks or
 * landmark jitter between frames, a still injected as video adds nothing but re-encoding noise.
 */
export const STILL_FRAME_DIFFERENCE = 0.5;

export interface SignalInputs {
  readonly frames: readonly WorkerAnalysis[];
  /** The subject face of each frame (undefined where none was usable). */
  readonly subjects: ReadonlyArray<AnalyzedFace | undefined>;
  /** Raw frame bytes: byte-identical frames are a replay without even re-encoding. */
  readonly frameBytes: readonly Buffer[];
  readonly deviceNames: readonly string[];
  /** Cosine similarity at which two F200 embeddings are the same person at FMR 10^-2. */
  readonly sameIdentityScore: number;
  /** The light-trace verdict (charlie workflows), as `optical_analysis`; ERROR when not run or inconclusive. */
  readonly lightTrace?: SignalStatus;
}

/**
 * Computes the injection-attack signals the request allows.
 *
 * @example
 * const signals = iadSignals(inputs, config.iadModes);
 * signals.image_similarity_detection; // { status: 'FAIL', mode: 'DECISIONING' } for a repeated still
 */
export function iadSignals(
  inputs: SignalInputs,
  overrides: ReadonlyMap<string, SignalMode>,
): Record<IadSignalName, IadSignal> {
  // The multi-frame signals read one registration of each consecutive pair of frames.
  const motion = sequenceMotion(motionFrames(inputs.frames, inputs.subjects, inputs.frameBytes));
  const status: Record<IadSignalName, SignalStatus> = {
    code_injection_detection: 'ERROR',
    emulator_detection: nameCheck(inputs.deviceNames, EMULATORS),
    face_swap_detection: faceSwap(inputs),
    facial_motion_analysis: facialDeformationStatus(
      facialDeformation(inputs.subjects.flatMap((s) => (s ? [s.mesh] : []))),
    ),
    image_similarity_detection: imageSimilarity(inputs),
    optical_analysis: inputs.lightTrace ?? 'ERROR',
    planar_motion_detection: planarMotionStatus(motion),
    rooted_mobile_detection: 'ERROR',
    sensor_detection: 'ERROR',
    spectral_analysis: spectralDetail(inputs),
    suspicious_border_detection: suspiciousBorder(inputs),
    temporal_noise_analysis: temporalNoiseStatus(motion),
    virtual_camera_detection: nameCheck(inputs.deviceNames, VIRTUAL_CAMERAS),
  };
  const out = {} as Record<IadSignalName, IadSignal>;
  for (const name of Object.keys(status) as IadSignalName[])
    out[name] = { status: status[name], mode: overrides.get(name) ?? DEFAULT_MODES[name] };
  return out;
}

function nameCheck(names: readonly string[], known: readonly string[]): SignalStatus {
  const lower = names.map((n) => n.toLowerCase());
  return lower.some((n) => known.some((k) => n.includes(k))) ? 'FAIL' : 'PASS';
}

/** FAIL when no two consecutive frames differ: a still image sent as a sequence. ERROR for one frame. */
function imageSimilarity(inputs: SignalInputs): SignalStatus {
  const { frames, subjects, frameBytes } = inputs;
  if (frames.length < 2) return 'ERROR';
  for (let i = 1; i < frames.length; i++) {
    const bytes = frameBytes[i];
    if (bytes !== undefined && frameBytes[i - 1]?.equals(bytes)) continue;
    const a = frames[i - 1]?.frameThumbnail;
    const b = frames[i]?.frameThumbnail;
    const fa = subjects[i - 1]?.liveness?.faceThumbnail;
    const fb = subjects[i]?.liveness?.faceThumbnail;
    // Without thumbnails nothing says the frames are the same; without a face in both, the frame decides alone.
    const frameMoved = a && b ? meanAbsoluteDifference(a, b) >= STILL_FRAME_DIFFERENCE : true;
    const faceMoved = fa && fb ? meanAbsoluteDifference(fa, fb) >= STILL_FRAME_DIFFERENCE : false;
    if (frameMoved || faceMoved) return 'PASS';
  }
  return 'FAIL';
}

/**
 * Below this share of fine detail (FrameMeasures.detail) a frame was upscaled from a smaller picture.
 * Measured: 0.40 for the packaged portraits as 480×640 frames, 0.20-0.21 after a 1.5× upscale, 0.17
 * at 2×, 0.14 at 3×; 0.29-1.28 for the dev set's live photos.
 */
export const MIN_FRAME_DETAIL = 0.25;

/**
 * FAIL when the frames lack the top octave of detail a camera delivers (a video upscaled into the
 * stream: a typical injection). REPORT_ONLY by default: strong denoising or compression in a phone's
 * camera pipeline could lower it too, and no recorded injections were at hand (docs/liveness.md).
 */
function spectralDetail(inputs: SignalInputs): SignalStatus {
  const details = inputs.frames
    .map((f) => f.frameDetail)
    .filter((d): d is number => d !== undefined)
    .sort((a, b) => a - b);
  const middle = details[Math.floor(details.length / 2)];
  if (middle === undefined) return 'ERROR'; // no frame was measured
  return middle < MIN_FRAME_DETAIL ? 'FAIL' : 'PASS';
}

/**
 * FAIL when a face is framed on 3 or 4 sides by long straight edges (a phone, screen or print held up
 * to the camera); ERROR without a face. REPORT_ONLY by default: doorways and windows behind a user can
 * frame a face too, and no recorded attacks were at hand to calibrate it (docs/liveness.md).
 */
function suspiciousBorder(inputs: SignalInputs): SignalStatus {
  const sides = inputs.subjects.map((s) => s?.liveness?.framingSides).filter((n): n is number => n !== undefined);
  if (sides.length === 0) return 'ERROR';
  return sides.some((n) => n >= 3) ? 'FAIL' : 'PASS';
}

/** FAIL when a frame's face would not verify against the first frame's at FMR 10^-2. ERROR for fewer than two faces. */
function faceSwap(inputs: SignalInputs): SignalStatus {
  const vectors = inputs.subjects.map((s) => s?.recognitionViews[0]).filter((v): v is Float32Array => v !== undefined);
  const [first, ...rest] = vectors;
  if (first === undefined || rest.length === 0) return 'ERROR';
  return rest.every((v) => dot(first, v) >= inputs.sameIdentityScore) ? 'PASS' : 'FAIL';
}

import type { FaceEngine } from '../../engines/face/face-engine.js';
import type { AnalyzedFace, WorkerAnalysis } from '../../engines/face/face-analysis-types.js';
import { planarResidual } from '../../engines/liveness/planar-motion.js';
import { FACE_ALGORITHMS } from '../../engines/face/algorithms.js';
import { iadSignals } from '../../engines/liveness/iad-signals.js';
import type { LivenessRequest } from '../../engines/liveness/liveness-request.js';
import {
  analyzeFrames,
  decidePassiveLiveness,
  sameIdentityScore,
  spoofTypes,
  subjectOf,
  type LivenessContext,
  type LivenessResult,
} from '../../engines/liveness/passive-liveness.js';
import type { HeadMove } from '../../engines/liveness/workflows.js';

/**
 * Head turn asked of the user, in degrees of yaw or pitch from the first frame of the active request.
 * The pose estimate moves by at most 2.9° (σ ≤ 0.9°) across frames of one still face shifted,
 * tilted and re-framed like a hand-held phone (measured on the packaged portraits), so 10° is a
 * deliberate turn, not jitter.
 */
export const MIN_HEAD_TURN_DEGREES = 10;

/**
 * Least non-planar landmark motion (RMS residual after the best homography, in inter-eye distances)
 * a real head turn shows. Measured: 0.010-0.015 between frames of one still picture shifted and tilted
 * (planar by construction: the mesh's own noise); 0.06-0.20 between photos of one person whose yaw
 * differs by 10° or more (LFW dev pairs). A picture turned in front of the camera stays planar.
 */
export const MIN_TURN_PARALLAX = 0.035;

/**
 * Sign of the pose change each move asks for. human's pose: yaw > 0 = face turned to the image's left
 * (the subject's right in an unmirrored frame), pitch > 0 = head down. `left`/`right` are the user's
 * own left and right, in frames as the camera took them (not a mirrored preview).
 */
const MOVES: Readonly<Record<HeadMove, { axis: 'yaw' | 'pitch'; sign: 1 | -1 }>> = {
  left: { axis: 'yaw', sign: -1 },
  right: { axis: 'yaw', sign: 1 },
  up: { axis: 'pitch', sign: -1 },
  down: { axis: 'pitch', sign: 1 },
};

export interface ActiveLivenessResult {
  feedback: string[];
  score: number;
  decision: string;
  score_frr: number;
  details: { passive_liveness: LivenessResult; active_liveness: LivenessResult };
}

/**
 * `checkActiveLiveness`: the passive request decides presentation and injection attacks as in
 * `checkLiveness`; each active request must show the asked head turn (at least
 * MIN_HEAD_TURN_DEGREES from its first frame, in the asked direction) with the parallax of a 3-D
 * head (MIN_TURN_PARALLAX), by the same person as the passive frames, with the injection signals
 * passing on the active frames. Analyses the frames, then decides with {@link decideActiveLiveness}.
 *
 * @example
 * const result = await assessActiveLiveness(engine, passive, [up, down], context);
 * result.decision; // 'LIVE' when the passive part is live and both turns were made
 */
export async function assessActiveLiveness(
  engine: FaceEngine,
  passive: LivenessRequest,
  actives: readonly LivenessRequest[],
  context: LivenessContext,
): Promise<ActiveLivenessResult> {
  const analyze = (request: LivenessRequest) => analyzeFrames(engine, request, FACE_ALGORITHMS.F200.embeddings.views);
  const [passiveFrames, activeFrames] = await Promise.all([analyze(passive), Promise.all(actives.map(analyze))]);
  return decideActiveLiveness(passive, passiveFrames, actives, activeFrames, context);
}

/**
 * The decision of {@link assessActiveLiveness} on frames already analysed: `passiveFrames` are the
 * passive request's frames, `activeFrames[i]` those of `actives[i]` (an active workflow each).
 *
 * @example
 * const result = decideActiveLiveness(passive, passiveFrames, [up, down], [upFrames, downFrames], context);
 * result.details.active_liveness.feedback; // ['FLAT_HEAD_MOVEMENT'] for a photo turned in front of the camera
 */
export function decideActiveLiveness(
  passive: LivenessRequest,
  passiveFrames: readonly WorkerAnalysis[],
  actives: readonly LivenessRequest[],
  activeFrames: ReadonlyArray<readonly WorkerAnalysis[]>,
  context: LivenessContext,
): ActiveLivenessResult {
  if (activeFrames.length !== actives.length)
    throw new Error(`${actives.length} active requests but ${activeFrames.length} frame analyses`);
  const passiveResult = decidePassiveLiveness(passive, passiveFrames, context);

  const feedback = new Set<string>();
  const { index: referenceIndex, face: reference } = referenceFace(passive, passiveFrames);
  let movesMade = true;
  const allSubjects: Array<AnalyzedFace | undefined> = [];
  for (const [i, request] of actives.entries()) {
    const frames = activeFrames[i];
    if (frames === undefined) throw new Error(`no frame analysis for active request ${i}`);
    const subjects = frames.map((frame) => subjectOf(frame, request, feedback));
    allSubjects.push(...subjects);
    const move = moveOf(request);
    const faces = subjects.filter((s): s is AnalyzedFace => s !== undefined);
    const [first] = faces;
    const turns =
      first === undefined
        ? []
        : faces.map((f) => (move.sign * (f.pose[move.axis] - first.pose[move.axis]) * 180) / Math.PI);
    // The frame turned furthest from the first one (none with fewer than two faces).
    const most = faces.length < 2 ? -1 : turns.indexOf(Math.max(...turns.slice(1)));
    const turned = faces[most];
    const turn = turns[most] ?? 0;
    if (turn < MIN_HEAD_TURN_DEGREES) {
      movesMade = false;
      feedback.add(Math.min(...turns) <= -MIN_HEAD_TURN_DEGREES ? 'WRONG_HEAD_MOVEMENT' : 'HEAD_MOVEMENT_NOT_DETECTED');
    } else if (
      first !== undefined &&
      turned !== undefined &&
      planarResidual(first.mesh, turned.mesh, first.liveness?.interEyePixels ?? 1) < MIN_TURN_PARALLAX
    ) {
      // The landmarks moved as one plane: a picture turned in front of the camera, not a head.
      movesMade = false;
      feedback.add('FLAT_HEAD_MOVEMENT');
    }
  }
  // The active frames must show the passive frames' person: the reference face leads the list, with
  // the frame and bytes it was found in, so every signal pairs a face with its own picture.
  const referenceFrames = passiveFrames.slice(referenceIndex, referenceIndex + 1);
  const referenceBytes = passive.frames.slice(referenceIndex, referenceIndex + 1).map((f) => f.bytes);
  const signals = iadSignals(
    {
      frames: [...referenceFrames, ...activeFrames.flat()],
      subjects: [reference, ...allSubjects],
      frameBytes: [...referenceBytes, ...actives.flatMap((r) => r.frames.map((f) => f.bytes))],
      deviceNames: passive.deviceNames,
      sameIdentityScore: sameIdentityScore(),
    },
    context.iadModes,
  );
  const iadFail = Object.values(signals).some((s) => s.mode === 'DECISIONING' && s.status === 'FAIL');
  if (iadFail) feedback.add('INJECTION_ATTACK_SUSPECTED');
  const activeLive = movesMade && !iadFail;
  const activeResult: LivenessResult = {
    decision: activeLive ? 'LIVE' : 'SPOOF',
    score: activeLive ? 100 : 0,
    score_frr: 0,
    feedback: [...feedback],
    decision_info: {
      IAD: { signals },
      PAD: { status: movesMade ? 'PASS' : 'FAIL', spoof_type_probability: spoofTypes(movesMade ? 1 : 0) },
    },
  };
  const live = passiveResult.decision === 'LIVE' && activeLive;
  // A passive quality or timing verdict (score -1) says more than SPOOF: it is kept.
  const decision = live ? 'LIVE' : passiveResult.score === -1 ? passiveResult.decision : 'SPOOF';
  return {
    feedback: [...new Set([...passiveResult.feedback, ...feedback])],
    score: live ? 100 : passiveResult.score === -1 ? -1 : 0,
    decision,
    score_frr: passiveResult.score_frr,
    details: { passive_liveness: passiveResult, active_liveness: activeResult },
  };
}

/**
 * The first passive frame whose subject face has a recognition embedding, and that face; frame 0 and
 * no face when none has one.
 */
function referenceFace(
  passive: LivenessRequest,
  frames: readonly WorkerAnalysis[],
): { index: number; face: AnalyzedFace | undefined } {
  for (const [index, frame] of frames.entries()) {
    const face = subjectOf(frame, passive, new Set());
    if (face?.recognitionViews[0] !== undefined) return { index, face };
  }
  return { index: 0, face: undefined };
}

function moveOf(request: LivenessRequest): (typeof MOVES)[HeadMove] {
  const { move, name } = request.workflow;
  if (move === undefined) throw new Error(`workflow ${name} asks for no head move: it is not an active workflow`);
  return MOVES[move];
}

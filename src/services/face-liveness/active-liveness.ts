import type { FaceEngine } from '../../engines/face/face-engine.js';
import type { AnalyzedFace } from '../../engines/face/face-worker.js';
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
 * passing on the active frames.
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
  const [passiveFrames, ...activeFrames] = await Promise.all(
    [passive, ...actives].map((r) => analyzeFrames(engine, r, FACE_ALGORITHMS.F200.embeddings.views)),
  );
  const passiveResult = decidePassiveLiveness(passive, passiveFrames!, context);

  const feedback = new Set<string>();
  const reference = passiveFrames!
    .map((f) => subjectOf(f, passive, new Set()))
    .find((s) => s?.recognitionViews[0] !== undefined);
  let movesMade = true;
  const allSubjects: Array<AnalyzedFace | undefined> = [];
  actives.forEach((request, i) => {
    const subjects = activeFrames[i]!.map((frame) => subjectOf(frame, request, feedback));
    allSubjects.push(...subjects);
    const move = MOVES[request.workflow.move!];
    const faces = subjects.filter((s): s is AnalyzedFace => s !== undefined);
    const turns = faces.map((f) => (move.sign * (f.pose[move.axis] - faces[0]!.pose[move.axis]) * 180) / Math.PI);
    const most = turns.indexOf(Math.max(...turns.slice(1)));
    const turn = faces.length < 2 ? 0 : turns[most]!;
    if (turn < MIN_HEAD_TURN_DEGREES) {
      movesMade = false;
      feedback.add(Math.min(...turns) <= -MIN_HEAD_TURN_DEGREES ? 'WRONG_HEAD_MOVEMENT' : 'HEAD_MOVEMENT_NOT_DETECTED');
    } else if (
      planarResidual(faces[0]!.mesh, faces[most]!.mesh, faces[0]!.liveness?.interEyePixels ?? 1) < MIN_TURN_PARALLAX
    ) {
      // The landmarks moved as one plane: a picture turned in front of the camera, not a head.
      movesMade = false;
      feedback.add('FLAT_HEAD_MOVEMENT');
    }
  });
  // The active frames must show the passive frames' person: the first passive face leads the list.
  const frames = [...passiveFrames!.slice(0, 1), ...activeFrames.flat()];
  const signals = iadSignals(
    {
      frames,
      subjects: [reference, ...allSubjects],
      frameBytes: [passive.frames[0]!.bytes, ...actives.flatMap((r) => r.frames.map((f) => f.bytes))],
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

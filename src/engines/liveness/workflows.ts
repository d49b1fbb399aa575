import { LivenessCode, LivenessInputError } from './liveness-input-error.js';

/**
 * What a workflow name means here (the spec names them, we define them; docs/liveness.md):
 * - `hotel`: passive liveness on the frames given (one or more).
 * - `foxtrot`: passive, and the frames must show a live sequence: at least 3 frames, not
 *   near-identical, one identity throughout.
 * - `charlie`: foxtrot plus the bright-screen light trace (frames tagged with the colour the screen
 *   showed); see docs/liveness.md for its state.
 * - `active_up|down|left|right`: the head must turn that way across the frames (checkActiveLiveness).
 * The digit is the security level: 2, 4, 6 = thresholds at a bona fide rejection rate of 2%, 5%, 10%
 * on held-out data (higher level: fewer attacks accepted, more live users asked to retry).
 */
export type LivenessMethod = 'hotel' | 'foxtrot' | 'charlie' | 'active';
export type HeadMove = 'up' | 'down' | 'left' | 'right';

export interface Workflow {
  readonly name: string;
  readonly method: LivenessMethod;
  /** 1..10; the workflow digit unless `security_level` overrides it. */
  readonly securityLevel: number;
  readonly move: HeadMove | undefined;
  /** Frames a request of this workflow needs at least. */
  readonly minFrames: number;
}

/** Bona fide rejection rate aimed at per security level 1..10 (index 0 = level 1). */
export const TARGET_BPCER_BY_LEVEL: readonly number[] = [0.01, 0.02, 0.035, 0.05, 0.075, 0.1, 0.15, 0.2, 0.25, 0.3];

/**
 * The bona fide rejection rate a security level aims at (TARGET_BPCER_BY_LEVEL).
 *
 * @example
 * padThreshold(targetBpcer(4)); // the P(live) threshold of level 4, which refuses 5% of live users
 * @throws {RangeError} for a level that is not a whole number from 1 to 10 (parseWorkflow refuses those first)
 */
export function targetBpcer(securityLevel: number): number {
  const rate = TARGET_BPCER_BY_LEVEL[securityLevel - 1];
  if (rate === undefined)
    throw new RangeError(
      `security level ${securityLevel} is not a whole number from 1 to ${TARGET_BPCER_BY_LEVEL.length}`,
    );
  return rate;
}

/** Security level of the active workflows (their passive part is judged at it). */
const ACTIVE_LEVEL = 4;
export const MAX_FRAMES = 10;

/**
 * Parses a workflow name and the optional `security_level` override.
 *
 * @example
 * parseWorkflow('foxtrot4'); // { method: 'foxtrot', securityLevel: 4, minFrames: 3, ... }
 * @throws {LivenessInputError} -6 for an unknown workflow or a level outside 1..10
 */
export function parseWorkflow(name: string, securityLevel?: number): Workflow {
  const named = workflowOfName(name);
  if (named === undefined) {
    throw new LivenessInputError(
      LivenessCode.invalidValue,
      `workflow must be one of charlie2/4/6, foxtrot2/4/6, hotel2/4/6, active_up, active_down, active_left, active_right (got '${name}')`,
    );
  }
  if (securityLevel !== undefined && (securityLevel < 1 || securityLevel > TARGET_BPCER_BY_LEVEL.length)) {
    throw new LivenessInputError(
      LivenessCode.invalidValue,
      `security_level must be from 1 to ${TARGET_BPCER_BY_LEVEL.length} (got ${securityLevel})`,
    );
  }
  const { method, level, move } = named;
  return {
    name,
    method,
    securityLevel: securityLevel ?? level,
    move,
    minFrames: method === 'active' ? 2 : method === 'hotel' ? 1 : 3,
  };
}

/** Method, level and head move a workflow name spells; undefined for a name that is none. */
function workflowOfName(
  name: string,
): { method: LivenessMethod; level: number; move: HeadMove | undefined } | undefined {
  const [, method, digit] = /^(hotel|foxtrot|charlie)([246])$/.exec(name) ?? [];
  if (method === 'hotel' || method === 'foxtrot' || method === 'charlie')
    return { method, level: Number(digit), move: undefined };
  const [, move] = /^active_(up|down|left|right)$/.exec(name) ?? [];
  if (move === 'up' || move === 'down' || move === 'left' || move === 'right')
    return { method: 'active', level: ACTIVE_LEVEL, move };
  return undefined;
}

/**
 * Server-issued liveness challenges (issue 16): the server draws, with a cryptographic generator, what a
 * capture must show — the screen-colour sequence of a charlie light trace, the head moves of an active
 * check — and the request that carries the challenge must show exactly that, within its lifetime. A
 * sequence recorded before the challenge was drawn cannot know it. Drawing and checking live here; keeping
 * the nonce single-use is the store's (src/store/liveness-challenges.ts).
 */
import { randomInt } from 'node:crypto';
import { screenColourOf, type Rgb } from './light-trace.js';
import { LivenessCode, LivenessInputError } from './liveness-input-error.js';
import type { LivenessRequest } from './liveness-request.js';
import { parseWorkflow, type HeadMove } from './workflows.js';

/**
 * The colours a charlie challenge draws from, as the frame tags that name them (light-trace.ts): the
 * primaries, their complements and white, far apart in chromaticity so the face's response to each
 * change is large.
 */
export const CHALLENGE_SCREEN_COLOURS: readonly string[] = [
  'SCREEN_COLOR_FF0000',
  'SCREEN_COLOR_00FF00',
  'SCREEN_COLOR_0000FF',
  'SCREEN_COLOR_FFFF00',
  'SCREEN_COLOR_00FFFF',
  'SCREEN_COLOR_FF00FF',
  'SCREEN_COLOR_FFFFFF',
];

/**
 * Colours in a charlie challenge, each different from the one before: 7·6⁴ = 9,072 sequences, so a
 * recording made for one sequence answers a challenge with probability 1/9,072. Five colours fit the
 * 10-frame limit with two frames each.
 */
export const CHALLENGE_COLOUR_COUNT = 5;

const HEAD_MOVES: readonly HeadMove[] = ['up', 'down', 'left', 'right'];

/**
 * Frame timestamps from this value on (2001-09-09 in milliseconds since 1970) are read as wall-clock times
 * and must fall within the challenge's lifetime; smaller ones are relative and only their span is checked.
 */
export const WALL_CLOCK_FROM_MS = 1e12;

/** What a request carrying the challenge must show. */
export interface ChallengeTerms {
  /** The passive workflow name the (passive) request must use, e.g. 'charlie4'. */
  readonly workflow: string;
  /** Screen-colour tags in the order the screen must show them (charlie workflows); empty otherwise. */
  readonly screenColours: readonly string[];
  /** The two active workflows of `/checkActiveLiveness`, in the order asked; empty for the passive calls. */
  readonly activeWorkflows: readonly string[];
}

/** Challenge terms with their lifetime, milliseconds since 1970. */
export interface TimedChallenge extends ChallengeTerms {
  readonly issuedAt: number;
  readonly expiresAt: number;
}

/** A uniform integer in [0, bound): node:crypto's randomInt unless a test gives another. */
export type RandomIndex = (bound: number) => number;

/**
 * Draws the terms of a challenge for a passive workflow (`active`: for `/checkActiveLiveness`, whose passive
 * request uses `workflow`): a charlie workflow gets CHALLENGE_COLOUR_COUNT colours, no colour repeated
 * twice in a row; `active` gets two different head moves in a random order.
 *
 * @example
 * drawChallengeTerms('charlie4', false);
 * // { workflow: 'charlie4', screenColours: ['SCREEN_COLOR_00FFFF', 'SCREEN_COLOR_FF0000', ...], activeWorkflows: [] }
 * drawChallengeTerms('hotel4', true).activeWorkflows; // e.g. ['active_left', 'active_up']
 * @throws {LivenessInputError} -6 for a name that is no passive workflow
 */
export function drawChallengeTerms(workflow: string, active: boolean, random: RandomIndex = randomInt): ChallengeTerms {
  const { method } = parseWorkflow(workflow);
  if (method === 'active')
    throw new LivenessInputError(
      LivenessCode.invalidValue,
      `workflow must name the passive workflow (hotel, foxtrot or charlie with its digit); for /checkActiveLiveness send that of its passive request with active: true (got '${workflow}')`,
    );
  const screenColours: string[] = [];
  if (method === 'charlie') {
    for (let i = 0; i < CHALLENGE_COLOUR_COUNT; i++) {
      const previous = screenColours.length === 0 ? -1 : CHALLENGE_SCREEN_COLOURS.indexOf(screenColours[i - 1] ?? '');
      // Draw among the colours other than the previous one.
      const pick = random(CHALLENGE_SCREEN_COLOURS.length - (previous < 0 ? 0 : 1));
      const index = previous >= 0 && pick >= previous ? pick + 1 : pick;
      screenColours.push(pickFrom(CHALLENGE_SCREEN_COLOURS, index));
    }
  }
  const activeWorkflows: string[] = [];
  if (active) {
    const first = random(HEAD_MOVES.length);
    const second = random(HEAD_MOVES.length - 1);
    const moves = [pickFrom(HEAD_MOVES, first), pickFrom(HEAD_MOVES, second >= first ? second + 1 : second)];
    activeWorkflows.push(...moves.map((move) => `active_${move}`));
  }
  return { workflow, screenColours, activeWorkflows };
}

/**
 * Checks that a request follows the challenge it carries: the workflow it was issued for (and, for an active
 * challenge, the two active workflows in the asked order); for a colour challenge, every passive frame tagged
 * with the colour on screen, the colours in the issued order (consecutive frames may share one); and the
 * timing: a package `timestamp` not before the challenge was issued (less the clock skew allowed), the frames
 * spanning no more than the challenge's lifetime, wall-clock frame times (WALL_CLOCK_FROM_MS) within it.
 *
 * @example
 * checkFollowsChallenge(challenge, passiveRequest, [], { now: Date.now(), maxSkewMs: 30_000 });
 * @throws {LivenessInputError} -6 naming what the request did differently
 */
export function checkFollowsChallenge(
  challenge: TimedChallenge,
  passive: LivenessRequest,
  actives: readonly LivenessRequest[],
  timing: { readonly now: number; readonly maxSkewMs: number },
): void {
  const refuse = (why: string) => new LivenessInputError(LivenessCode.invalidValue, `challenge not followed: ${why}`);
  if (passive.workflow.name !== challenge.workflow)
    throw refuse(`it was issued for workflow ${challenge.workflow}, the request is ${passive.workflow.name}`);
  const activeNames = actives.map((request) => request.workflow.name);
  if (challenge.activeWorkflows.length === 0 && activeNames.length > 0)
    throw refuse('it was issued for /checkLiveness and /analyze; ask for one with active: true');
  if (challenge.activeWorkflows.length > 0 && activeNames.join(',') !== challenge.activeWorkflows.join(','))
    throw refuse(
      `the active requests must be ${challenge.activeWorkflows.join(' then ')} (got ${activeNames.join(', ') || 'none'})`,
    );

  if (challenge.screenColours.length > 0) {
    const untagged = passive.frames.findIndex((frame) => frame.screenColour === undefined);
    if (untagged >= 0) throw refuse(`frames[${untagged}] carries no screen-colour tag`);
    const shown = passive.frames
      .map((frame) => (frame.screenColour === undefined ? '' : rgbKey(frame.screenColour)))
      .filter((key, i, keys) => i === 0 || key !== keys[i - 1]);
    const asked = challenge.screenColours.map((tag) => {
      const rgb = screenColourOf([tag]);
      return rgb === undefined ? tag : rgbKey(rgb);
    });
    if (shown.join(';') !== asked.join(';'))
      throw refuse(`the frames' screen colours must follow ${challenge.screenColours.join(', ')} in that order`);
  }

  const lifetime = challenge.expiresAt - challenge.issuedAt;
  const earliest = challenge.issuedAt - timing.maxSkewMs;
  for (const request of [passive, ...actives]) {
    const { packageTimestamp, frames } = request;
    if (packageTimestamp !== undefined && packageTimestamp < earliest)
      throw refuse('the package timestamp is before the challenge was issued');
    const first = frames[0]?.timestamp ?? 0;
    const last = frames[frames.length - 1]?.timestamp ?? 0;
    if (last - first > lifetime)
      throw refuse(`the frames span ${last - first} ms, longer than the challenge's lifetime (${lifetime} ms)`);
    if (first >= WALL_CLOCK_FROM_MS && (first < earliest || last > timing.now + timing.maxSkewMs))
      throw refuse('the frames were not taken while the challenge was valid');
  }
}

/** One colour as text, so colours named by different tags (SCREEN_RED, SCREEN_COLOR_FF0000) compare equal. */
function rgbKey(rgb: Rgb): string {
  return rgb.join(',');
}

function pickFrom<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new RangeError(`random index ${index} outside 0..${items.length - 1}`);
  return item;
}

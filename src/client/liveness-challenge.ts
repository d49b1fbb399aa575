/**
 * Server-issued liveness challenges on the client side (issue 16): what the server answers, and the
 * capture schedule that follows it. The same shape comes from `POST /face-liveness/challenge` and from
 * onboarding's `/onboarding/enrollment/challenge` and `/onboarding/authentication/challenge`.
 */

/** A challenge as the server issues it. */
export interface LivenessChallenge {
  /** Single-use nonce: sent as `workflow_data.challenge` of the one request that follows it. */
  readonly challenge: string;
  /** The workflow the request must name (onboarding: the customer's). */
  readonly workflow: string;
  /** Screen-colour tags to show in this order (charlie workflows); empty otherwise. */
  readonly screenColours: readonly string[];
  /** Face liveness with `active: true`: the two active workflows, in this order. */
  readonly activeWorkflows?: readonly string[];
  /** Milliseconds since 1970. */
  readonly issuedAt: number;
  readonly expiresAt: number;
  readonly expiresIn: number;
}

/**
 * The tags of each of `frameCount` frames when the screen shows the challenge's colours in order, the
 * frames shared out evenly (each colour for at least one frame): show the colour `schedule[i]` names while
 * taking frame i and send `schedule[i]` as its tags. Empty tags when the challenge asks for no colours.
 *
 * @example
 * const schedule = challengeColourSchedule(challenge, 10); // [['SCREEN_COLOR_FF0000'], ['SCREEN_COLOR_FF0000'], ...]
 * frames[i] = { image, timestamp: Date.now(), tags: schedule[i] }; // taken while that colour was on screen
 * @throws {RangeError} for fewer frames than colours
 */
export function challengeColourSchedule(challenge: LivenessChallenge, frameCount: number): string[][] {
  const colours = challenge.screenColours;
  if (!Number.isInteger(frameCount) || frameCount < Math.max(1, colours.length))
    throw new RangeError(`the challenge shows ${colours.length} colours: take at least one frame per colour`);
  return Array.from({ length: frameCount }, (_, i) => {
    const colour = colours[Math.floor((i * colours.length) / frameCount)];
    return colour === undefined ? [] : [colour];
  });
}

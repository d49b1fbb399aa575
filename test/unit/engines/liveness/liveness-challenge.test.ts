import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { screenColourOf } from '../../../../src/engines/liveness/light-trace.js';
import {
  CHALLENGE_COLOUR_COUNT,
  CHALLENGE_SCREEN_COLOURS,
  checkFollowsChallenge,
  drawChallengeTerms,
  WALL_CLOCK_FROM_MS,
  type TimedChallenge,
} from '../../../../src/engines/liveness/liveness-challenge.js';
import { LivenessInputError } from '../../../../src/engines/liveness/liveness-input-error.js';
import type { LivenessRequest } from '../../../../src/engines/liveness/liveness-request.js';
import { livenessRequest } from '../../../helpers/liveness-inputs.js';

/** A random source that replays `values` (each must be below the bound it is asked for). */
function replay(values: readonly number[]): (bound: number) => number {
  let i = 0;
  return (bound) => {
    const value = values[i++] ?? 0;
    assert.ok(value < bound, `${value} is not below ${bound}`);
    return value;
  };
}

const ISSUED = 1_700_000_000_000;
const timing = { now: ISSUED + 5_000, maxSkewMs: 1_000 };

function challenge(terms: Partial<TimedChallenge> = {}): TimedChallenge {
  return {
    workflow: 'charlie4',
    screenColours: ['SCREEN_COLOR_FF0000', 'SCREEN_COLOR_00FF00', 'SCREEN_COLOR_0000FF'],
    activeWorkflows: [],
    issuedAt: ISSUED,
    expiresAt: ISSUED + 60_000,
    ...terms,
  };
}

/** A parsed request whose frames carry `tags` (one list per frame) and the given frame times. */
function tagged(workflow: string, tags: ReadonlyArray<readonly string[]>, times?: readonly number[]): LivenessRequest {
  const base = livenessRequest(workflow, tags.length);
  return {
    ...base,
    frames: base.frames.map((frame, i) => ({
      ...frame,
      tags: tags[i] ?? [],
      screenColour: screenColourOf(tags[i] ?? []),
      timestamp: times?.[i] ?? frame.timestamp,
    })),
  };
}

const refusal = (pattern: RegExp) => (error: unknown) =>
  error instanceof LivenessInputError && error.code === -6 && pattern.test(error.message);

describe('liveness challenge: drawing', () => {
  it('draws charlie colours from the palette, never the same twice in a row', () => {
    const terms = drawChallengeTerms('charlie4', false, replay([3, 3, 0, 5, 2]));
    // 3 -> YELLOW; then 3 of the six others (skipping index 3) -> 4 CYAN; 0 -> RED; 5 -> (skip 0) 6 WHITE; 2 -> BLUE.
    assert.deepEqual(terms.screenColours, [
      'SCREEN_COLOR_FFFF00',
      'SCREEN_COLOR_00FFFF',
      'SCREEN_COLOR_FF0000',
      'SCREEN_COLOR_FFFFFF',
      'SCREEN_COLOR_0000FF',
    ]);
    assert.deepEqual(terms.activeWorkflows, []);
    for (let run = 0; run < 200; run++) {
      const { screenColours } = drawChallengeTerms('charlie2', false);
      assert.equal(screenColours.length, CHALLENGE_COLOUR_COUNT);
      screenColours.forEach((tag, i) => {
        assert.ok(CHALLENGE_SCREEN_COLOURS.includes(tag), tag);
        assert.notEqual(tag, screenColours[i - 1]);
      });
    }
  });

  it('draws two different head moves for an active challenge and no colours for other workflows', () => {
    assert.deepEqual(drawChallengeTerms('hotel4', true, replay([2, 2])).activeWorkflows, [
      'active_left',
      'active_right',
    ]);
    assert.deepEqual(drawChallengeTerms('hotel4', true, replay([1, 0])).activeWorkflows, ['active_down', 'active_up']);
    const seen = new Set<string>();
    for (let run = 0; run < 200; run++) {
      const { activeWorkflows, screenColours } = drawChallengeTerms('foxtrot4', true);
      assert.equal(activeWorkflows.length, 2);
      assert.notEqual(activeWorkflows[0], activeWorkflows[1]);
      assert.deepEqual(screenColours, []);
      seen.add(activeWorkflows.join());
    }
    assert.equal(seen.size, 12, 'every ordered pair of different moves occurs');
  });

  it('refuses a name that is no passive workflow', () => {
    assert.throws(() => drawChallengeTerms('active_up', false), refusal(/passive workflow/));
    assert.throws(() => drawChallengeTerms('charlie9', false), refusal(/workflow must be one of/));
  });
});

describe('liveness challenge: following', () => {
  const RED = ['SCREEN_COLOR_FF0000'];
  const GREEN = ['SCREEN_GREEN'];
  const BLUE = ['SCREEN_COLOR_0000ff'];

  it('accepts the colours in the issued order, named by any tag, a colour held over several frames', () => {
    checkFollowsChallenge(challenge(), tagged('charlie4', [RED, GREEN, BLUE]), [], timing);
    checkFollowsChallenge(challenge(), tagged('charlie4', [RED, RED, GREEN, BLUE, BLUE]), [], timing);
  });

  it('refuses another order, a missing or extra colour, an untagged frame, another workflow', () => {
    const follows = (request: LivenessRequest) => () => checkFollowsChallenge(challenge(), request, [], timing);
    assert.throws(follows(tagged('charlie4', [GREEN, RED, BLUE])), refusal(/in that order/));
    assert.throws(follows(tagged('charlie4', [RED, GREEN, GREEN])), refusal(/in that order/));
    assert.throws(follows(tagged('charlie4', [RED, GREEN, BLUE, RED])), refusal(/in that order/));
    assert.throws(follows(tagged('charlie4', [RED, [], GREEN, BLUE])), refusal(/frames\[1\] carries no screen-colour/));
    assert.throws(follows(tagged('charlie2', [RED, GREEN, BLUE])), refusal(/issued for workflow charlie4/));
  });

  it('holds active requests to the drawn moves in order, and keeps passive and active challenges apart', () => {
    const active = challenge({ workflow: 'hotel4', screenColours: [], activeWorkflows: ['active_up', 'active_left'] });
    const passive = livenessRequest('hotel4', 1);
    const [up, left] = [livenessRequest('active_up', 2), livenessRequest('active_left', 2)];
    checkFollowsChallenge(active, passive, [up, left], timing);
    assert.throws(
      () => checkFollowsChallenge(active, passive, [left, up], timing),
      refusal(/active_up then active_left/),
    );
    assert.throws(() => checkFollowsChallenge(active, passive, [], timing), refusal(/got none/));
    const plain = challenge({ workflow: 'hotel4', screenColours: [] });
    assert.throws(() => checkFollowsChallenge(plain, passive, [up, left], timing), refusal(/active: true/));
  });

  it('holds the timing to the challenge: package time, frame span and wall-clock frame times', () => {
    const hotel = challenge({ workflow: 'hotel4', screenColours: [] });
    const withStamp = (packageTimestamp: number) => ({ ...livenessRequest('hotel4', 1), packageTimestamp });
    checkFollowsChallenge(hotel, withStamp(ISSUED - 500), [], timing);
    assert.throws(
      () => checkFollowsChallenge(hotel, withStamp(ISSUED - 5_000), [], timing),
      refusal(/before the challenge/),
    );

    const spanning = tagged('hotel4', [[], []], [0, 61_000]);
    assert.throws(
      () => checkFollowsChallenge(hotel, spanning, [], timing),
      refusal(/longer than the challenge's lifetime/),
    );

    assert.ok(ISSUED > WALL_CLOCK_FROM_MS);
    checkFollowsChallenge(hotel, tagged('hotel4', [[], []], [ISSUED + 100, ISSUED + 200]), [], timing);
    const before = tagged('hotel4', [[], []], [ISSUED - 30_000, ISSUED - 29_900]);
    assert.throws(() => checkFollowsChallenge(hotel, before, [], timing), refusal(/not taken while the challenge/));
    const after = tagged('hotel4', [[], []], [ISSUED + 100, timing.now + 5_000]);
    assert.throws(() => checkFollowsChallenge(hotel, after, [], timing), refusal(/not taken while the challenge/));
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  lightTrace,
  lightTraceVerdict,
  screenColourOf,
  type Rgb,
} from '../../../../src/engines/liveness/light-trace.js';

const SCREEN: Rgb[] = [
  [255, 0, 0],
  [0, 255, 0],
  [0, 0, 255],
  [255, 255, 255],
];
const SKIN: Rgb = [190, 140, 120];
/** Skin lit partly by the screen: `share` of the light comes from it. */
const lit = (screen: Rgb, share: number): Rgb =>
  [0, 1, 2].map((c) => SKIN[c]! * (1 - share) + screen[c]! * share) as unknown as Rgb;

describe('light trace', () => {
  it('passes a face that follows the screen colours', () => {
    const trace = lightTrace(
      SCREEN.map((c) => lit(c, 0.08)),
      SCREEN,
    );
    assert.ok(trace.correlation > 0.9, JSON.stringify(trace));
    assert.equal(lightTraceVerdict(trace, false), 'PASS');
  });

  it('fails a face that shows another sequence', () => {
    const shown = [SCREEN[1]!, SCREEN[2]!, SCREEN[0]!, SCREEN[3]!];
    const trace = lightTrace(
      shown.map((c) => lit(c, 0.08)),
      SCREEN,
    );
    assert.ok(trace.correlation < 0.2, JSON.stringify(trace));
    assert.equal(lightTraceVerdict(trace, false), 'FAIL');
  });

  it('cannot tell from a face that does not respond, unless STRICT', () => {
    const trace = lightTrace(
      SCREEN.map(() => SKIN),
      SCREEN,
    );
    assert.equal(trace.amplitude, 0);
    assert.equal(lightTraceVerdict(trace, false), 'INCONCLUSIVE');
    assert.equal(lightTraceVerdict(trace, true), 'FAIL');
  });

  it('reads screen colours from frame tags', () => {
    assert.deepEqual(screenColourOf(['ACTIVE_HEAD_UP', 'SCREEN_COLOR_FF8000']), [255, 128, 0]);
    assert.deepEqual(screenColourOf(['SCREEN_BLUE']), [0, 0, 255]);
    assert.equal(screenColourOf(['SCREEN_COLOR_XYZ']), undefined);
  });
});

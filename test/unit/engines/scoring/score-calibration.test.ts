import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  buildCalibrationTable,
  fmrScoreOf,
  scoreAtFmrScore,
} from '../../../../src/engines/scoring/score-calibration.js';

const SOURCE = { dataset: 'synthetic', command: 'test', date: '2026-11-23' };

/** Impostor scores 0, 1/n, 2/n, ...: the share at or above s is 1 - s. */
function uniform(n: number): Float64Array {
  return Float64Array.from({ length: n }, (_, i) => i / n);
}

describe('score calibration', () => {
  it('reads -log10(FMR) off the impostor distribution', () => {
    const table = buildCalibrationTable('T100', uniform(100_000), SOURCE);
    // FMR(0.99) = 0.01 -> 2; FMR(0.999) = 0.001 -> 3.
    assert.ok(Math.abs(fmrScoreOf(table, 0.99) - 2) < 0.02);
    assert.ok(Math.abs(fmrScoreOf(table, 0.999) - 3) < 0.05);
    assert.equal(fmrScoreOf(table, -1), 0);
    assert.equal(table.impostorPairs, 100_000);
    // Measured up to where 10 impostors remain: 10^-4.
    assert.equal(table.points.at(-1)![1], 4);
  });

  it('is monotone, extrapolates past the last point, and caps', () => {
    const table = buildCalibrationTable('T100', uniform(10_000), SOURCE, { maxFmrScore: 8 });
    let previous = -Infinity;
    for (let s = -0.5; s <= 1.5; s += 0.001) {
      const f = fmrScoreOf(table, s);
      assert.ok(f >= previous - 1e-12, `not monotone at ${s}`);
      previous = f;
    }
    const last = table.points.at(-1)!;
    assert.ok(fmrScoreOf(table, last[0] + 0.001) > last[1]);
    assert.equal(fmrScoreOf(table, 100), 8);
    assert.equal(fmrScoreOf(table, Number.NaN), 0);
  });

  it('inverts fmrScoreOf over the measured points', () => {
    const table = buildCalibrationTable('T100', uniform(100_000), SOURCE);
    for (const level of [0.5, 1, 2.1, 3.3])
      assert.ok(Math.abs(fmrScoreOf(table, scoreAtFmrScore(table, level)) - level) < 1e-6, `level ${level}`);
    assert.equal(scoreAtFmrScore(table, 99), table.points.at(-1)![0]);
  });

  it('needs enough impostors', () => {
    assert.throws(() => buildCalibrationTable('T100', uniform(50), SOURCE), /at least 100/);
  });
});

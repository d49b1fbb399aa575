import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fuseForIdentification, fuseScores, percentOfFmrScore } from '../../../../src/engines/scoring/fusion.js';
import { FusionInputError } from '../../../../src/engines/scoring/fusion-input-error.js';

const close = (actual: number, expected: number, tolerance = 1e-9) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${actual} != ${expected}`);

describe('fuseScores', () => {
  it('adds FMR scores: independent FMRs multiply', () => {
    close(fuseScores([3, 2.5]), 5.5);
    close(fuseScores([4]), 4);
  });
  it('rejects empty lists and impossible scores', () => {
    assert.throws(() => fuseScores([]), RangeError);
    assert.throws(() => fuseScores([-1]), RangeError);
    assert.throws(() => fuseScores([Number.POSITIVE_INFINITY]), RangeError);
  });
  it('rejects finite scores whose sum overflows, as a FusionInputError the server answers with -6', () => {
    assert.throws(() => fuseScores([1.7e308, 1.7e308]), FusionInputError);
    assert.throws(() => fuseForIdentification([{ scoreFmr: 1, encounterCount: Infinity }]), FusionInputError);
  });
});

describe('fuseForIdentification', () => {
  it('computes FPIR = 1 - (1 - FMR)^N', () => {
    const { fusedScoreFpir } = fuseForIdentification([{ scoreFmr: 2, encounterCount: 10 }]);
    close(fusedScoreFpir, -Math.log10(1 - (1 - 0.01) ** 10));
  });
  it('stays accurate for tiny FMRs and large galleries (FPIR ≈ N × FMR)', () => {
    const { fusedScoreFpir } = fuseForIdentification([{ scoreFmr: 9, encounterCount: 1000 }]);
    close(fusedScoreFpir, 6, 1e-6);
  });
  it('fuses modalities by multiplying FMRs, with the largest gallery', () => {
    const fused = fuseForIdentification([
      { scoreFmr: 4, encounterCount: 100 },
      { scoreFmr: 3, encounterCount: 1000 },
    ]);
    close(fused.fusedScoreFpir, -Math.log10(-Math.expm1(1000 * Math.log1p(-1e-7))), 1e-9);
  });
  it('gives 0 for a score any impostor would reach', () => {
    assert.equal(fuseForIdentification([{ scoreFmr: 0, encounterCount: 5 }]).fusedScoreFpir, 0);
  });
  it('rejects encounter counts below 1', () => {
    assert.throws(() => fuseForIdentification([{ scoreFmr: 1, encounterCount: 0 }]), RangeError);
    assert.throws(() => fuseForIdentification([]), RangeError);
  });
  it('rejects a bad encounter count beside a valid one, not only the largest', () => {
    const valid = { scoreFmr: 1, encounterCount: 100 };
    assert.throws(() => fuseForIdentification([valid, { scoreFmr: 1, encounterCount: 0 }]), RangeError);
    assert.throws(() => fuseForIdentification([{ scoreFmr: 1, encounterCount: 2.5 }, valid]), RangeError);
    assert.throws(() => fuseForIdentification([valid, { scoreFmr: 1, encounterCount: Number.NaN }]), RangeError);
  });
});

describe('percentOfFmrScore', () => {
  it('is linear in -log10 of the error rate, 0 at 1 and 100 at 1e-6', () => {
    assert.equal(percentOfFmrScore(0), 0);
    assert.equal(percentOfFmrScore(3), 50);
    assert.equal(percentOfFmrScore(6), 100);
    assert.equal(percentOfFmrScore(9), 100);
  });
});

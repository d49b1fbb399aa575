import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { normalisedSpeakerVector } from '../../../../src/engines/voice/score-normalisation.js';
import {
  loadSpeakerModel,
  parseSpeakerModel,
  type SpeakerCohort,
} from '../../../../src/engines/voice/speaker-model.js';
import { VOICE_ALGORITHM_NAMES } from '../../../../src/engines/voice/voice-algorithms.js';
import { isRecord } from '../../../../src/lib/json-guards.js';
import { dot, unitVector } from '../../../../src/lib/vectors.js';

/** A deterministic pseudo-random unit vector (LCG, Box-Muller-free: uniform in [-1, 1] per value). */
function pseudoRandomUnit(dims: number, seed: number): Float32Array {
  let state = seed >>> 0;
  return unitVector(
    Float32Array.from({ length: dims }, () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state / 2 ** 31 - 1;
    }),
  );
}

/** Row r of the cohort as floats (int8 × scale). */
function cohortRow(cohort: SpeakerCohort, r: number): Float32Array {
  const scale = cohort.scales[r] ?? 0;
  return Float32Array.from(cohort.values.subarray(r * cohort.dims, (r + 1) * cohort.dims), (v) => v * scale);
}

/** σ of x's dot products with every cohort row, computed here in plain floats. */
function handSigma(x: Float32Array, cohort: SpeakerCohort): number {
  const scores = Array.from({ length: cohort.rows }, (_, r) => dot(x, cohortRow(cohort, r)));
  const mean = scores.reduce((s, v) => s + v, 0) / scores.length;
  return Math.sqrt(scores.reduce((s, v) => s + (v - mean) ** 2, 0) / scores.length);
}

describe('normalisedSpeakerVector', () => {
  it('scales a template by 1/√σ, σ the deviation of its scores against the model cohort', () => {
    const model = loadSpeakerModel();
    for (const algorithm of VOICE_ALGORITHM_NAMES) {
      const cohort = model.cohort[algorithm];
      for (const x of [pseudoRandomUnit(cohort.dims, 7), unitVector(cohortRow(cohort, 3))]) {
        const sigma = handSigma(x, cohort);
        assert.ok(sigma > 0.005, `${algorithm}: σ ${sigma}`);
        const n = normalisedSpeakerVector(x, algorithm);
        // ‖n(x)‖² = 1/σ (int8 cohort scan: within 1%), and n(x) points where x does.
        const squaredNorm = dot(n, n);
        assert.ok(Math.abs(squaredNorm * sigma - 1) < 0.01, `${algorithm}: ‖n‖² ${squaredNorm}, 1/σ ${1 / sigma}`);
        assert.ok(Math.abs(dot(n, x) / Math.sqrt(squaredNorm) - 1) < 1e-6);
      }
    }
  });

  it('leaves a zero template zero, and refuses a template of another length', () => {
    const zero = new Float32Array(loadSpeakerModel().cohort.V600.dims);
    assert.deepEqual(normalisedSpeakerVector(zero, 'V600'), zero);
    assert.throws(() => normalisedSpeakerVector(new Float32Array(7), 'V600'), RangeError);
  });
});

describe('the speaker model cohort', () => {
  const path = 'src/engines/voice/speaker-model.json';
  const withCohort = (mutate: (cohort: Record<string, unknown>) => void): unknown => {
    const json: unknown = JSON.parse(readFileSync(path, 'utf8'));
    assert.ok(isRecord(json) && isRecord(json.cohort));
    mutate(json.cohort);
    return json;
  };
  const entry = (cohort: Record<string, unknown>, name: string): Record<string, unknown> => {
    const value = cohort[name];
    assert.ok(isRecord(value));
    return value;
  };

  it('the shipped model carries a cohort of each algorithm, one row per training speaker', () => {
    const model = loadSpeakerModel();
    for (const algorithm of VOICE_ALGORITHM_NAMES) {
      assert.equal(model.cohort[algorithm].rows, model.provenance.trainingSpeakers);
      assert.equal(model.cohort[algorithm].values.length, model.cohort[algorithm].rows * model.cohort[algorithm].dims);
    }
  });

  it('a cohort of the wrong dimensions, rows, scales or bytes stops the model from loading', () => {
    assert.throws(
      () =>
        parseSpeakerModel(
          withCohort((c) => (entry(c, 'V600').dims = 119)),
          path,
        ),
      /`cohort\.V600\.dims` is not 120/,
    );
    // Rows of another length: the bytes no longer fill rows × dims.
    assert.throws(
      () =>
        parseSpeakerModel(
          withCohort((c) => {
            const v900 = entry(c, 'V900');
            const rows = Number(v900.rows);
            const bytes = Buffer.from(String(v900.int8), 'base64');
            v900.int8 = bytes.subarray(0, rows * (bytes.length / rows - 1)).toString('base64');
          }),
          path,
        ),
      /`cohort\.V900\.int8` is not the base64 of/,
    );
    assert.throws(
      () =>
        parseSpeakerModel(
          withCohort((c) => (entry(c, 'V600').rows = 3)),
          path,
        ),
      /`cohort\.V600\.rows` is not an integer >= 10/,
    );
    assert.throws(
      () =>
        parseSpeakerModel(
          withCohort((c) => {
            const scales = entry(c, 'V900').scales;
            assert.ok(Array.isArray(scales));
            scales[0] = 0;
          }),
          path,
        ),
      /`cohort\.V900\.scales` is not 251 positive numbers/,
    );
    assert.throws(
      () =>
        parseSpeakerModel(
          withCohort((c) => delete c.V900),
          path,
        ),
      /`cohort\.V900` is not an object/,
    );
    const json: unknown = JSON.parse(readFileSync(path, 'utf8'));
    assert.ok(isRecord(json));
    delete json.cohort;
    assert.throws(() => parseSpeakerModel(json, path), /`cohort` is not an object/);
  });
});

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { compareSamples, verifySample } from '../../../src/biometric-matching/comparison.js';
import { addEncounter } from '../../../src/biometric-matching/encounter-cache.js';
import { identifyInCache } from '../../../src/biometric-matching/identification.js';
import type { MatchingContext } from '../../../src/biometric-matching/matching-context.js';
import { exportedTemplateSealer } from '../../../src/crypto/exported-template-sealing.js';
import { templateSealer } from '../../../src/crypto/template-sealing.js';
import { FACE_TEMPLATES } from '../../../src/engines/face/face-template-family.js';
import { CacheGalleries } from '../../../src/engines/matching/cache-galleries.js';
import type { TemplateVectors } from '../../../src/engines/matching/template-family.js';
import { cosine } from '../../../src/engines/scoring/calibrated-score.js';
import { normalisedSpeakerVector } from '../../../src/engines/voice/score-normalisation.js';
import { loadSpeakerModel } from '../../../src/engines/voice/speaker-model.js';
import type { VoiceAlgorithmName } from '../../../src/engines/voice/voice-algorithms.js';
import { VOICE_TEMPLATES } from '../../../src/engines/voice/voice-template-family.js';
import { dot, unitVector } from '../../../src/lib/vectors.js';
import { biometricEncountersRepository } from '../../../src/store/biometric-encounters.js';
import { openStore, type Store } from '../../../src/store/database.js';

/** A toy voice sample: the name of a V600 template of the table below. */
interface Sample {
  readonly name?: string;
  readonly import?: string;
}

const cohort = loadSpeakerModel().cohort.V600;

/** A V600 template near cohort row r: its scores against the cohort spread wide (large σ). */
function nearCohortRow(r: number): Float32Array {
  const scale = cohort.scales[r] ?? 0;
  return unitVector(
    Float32Array.from(cohort.values.subarray(r * cohort.dims, (r + 1) * cohort.dims), (v) => v * scale),
  );
}

/** A deterministic pseudo-random V600 template: far from every cohort row (small σ). */
function pseudoRandom(seed: number): Float32Array {
  let state = seed >>> 0;
  return unitVector(
    Float32Array.from({ length: cohort.dims }, () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state / 2 ** 31 - 1;
    }),
  );
}

const templates = new Map<string, Float32Array>();
let store: Store;
let matching: MatchingContext<VoiceAlgorithmName, Sample, undefined>;

before(async () => {
  store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  matching = {
    caches: new CacheGalleries(
      (customer) => biometricEncountersRepository(store.db, 'voice-matching', customer),
      templateSealer(randomBytes(32)),
      'voice-matching',
      VOICE_TEMPLATES,
    ),
    limitOf: () => 100,
    exports: exportedTemplateSealer(randomBytes(32)),
    vectors: (sample) => {
      const vector = templates.get(sample.name ?? '');
      assert.ok(vector, `no template ${sample.name}`);
      const vectors: TemplateVectors<VoiceAlgorithmName> = { V600: vector };
      return Promise.resolve(vectors);
    },
    algorithmOf: () => 'V600',
    calibrated: (algorithm, score) => VOICE_TEMPLATES.calibrated(algorithm, score),
    hasRawSample: (sample) => sample.name !== undefined,
  };
});
after(async () => {
  await store.close();
});

describe('voice matching scores normalised templates', () => {
  it('compare and verify give a pair the same score, n(a)·n(b) and not the cosine', async () => {
    const a = nearCohortRow(0);
    const b = unitVector(Float32Array.from(a, (v, i) => v + 0.5 * (pseudoRandom(11)[i] ?? 0)));
    templates.set('a', a);
    templates.set('b', b);
    await addEncounter(matching, 'acme', 'pair', { id: 'b', name: 'b' });
    const expected = dot(normalisedSpeakerVector(a, 'V600'), normalisedSpeakerVector(b, 'V600'));
    assert.ok(Math.abs(expected - cosine(a, b)) > 0.5, `normalised ${expected}, cosine ${cosine(a, b)}`);

    const compared = await compareSamples(matching, { probe: { name: 'a' }, gallery: { name: 'b' } });
    const verified = await verifySample(matching, 'acme', 'pair', { probe: { name: 'a' }, id: 'b' });
    assert.ok(Math.abs(compared.score - expected) < 1e-5, `compare ${compared.score}, n(a)·n(b) ${expected}`);
    // verify scores the int8 gallery row: the same score to int8 precision (about 1%).
    assert.ok(
      Math.abs(verified.score - compared.score) < 0.01 * Math.abs(compared.score) + 0.01,
      `verify ${verified.score}, compare ${compared.score}`,
    );
    assert.ok(Math.abs(verified.scoreFmr - VOICE_TEMPLATES.calibrated('V600', verified.score).scoreFmr) < 1e-3);
  });

  it('identify ranks by normalised score: a template with a wide cohort spread drops below a raw-cosine loser', async () => {
    const wide = nearCohortRow(5);
    const narrow = pseudoRandom(23);
    const n = (x: Float32Array): Float32Array => normalisedSpeakerVector(x, 'V600');
    assert.ok(dot(n(wide), n(wide)) < dot(n(narrow), n(narrow)), 'the cohort row spreads wider (larger σ)');
    // A probe between the two, nearer the wide one by cosine but nearer the narrow one once normalised.
    let probe: Float32Array | undefined;
    for (let t = 0.3; t <= 0.7 && probe === undefined; t += 0.005) {
      const p = unitVector(Float32Array.from(wide, (v, i) => (1 - t) * v + t * (narrow[i] ?? 0)));
      const rawWideFirst = dot(p, wide) > dot(p, narrow) + 0.02;
      const normalisedNarrowFirst = dot(n(p), n(narrow)) > dot(n(p), n(wide)) + 0.05;
      if (rawWideFirst && normalisedNarrowFirst) probe = p;
    }
    assert.ok(probe, 'a probe whose raw and normalised orders differ');
    templates.set('wide', wide);
    templates.set('narrow', narrow);
    templates.set('probe', probe);
    await addEncounter(matching, 'acme', 'order', { id: 'wide', name: 'wide' });
    await addEncounter(matching, 'acme', 'order', { id: 'narrow', name: 'narrow' });

    const { candidateList } = await identifyInCache(matching, 'acme', 'order', { probe: { name: 'probe' } });
    assert.deepEqual(
      candidateList.map((c) => c.id),
      ['narrow', 'wide'],
    );
    const [first] = candidateList;
    assert.ok(first);
    const compared = await compareSamples(matching, { probe: { name: 'probe' }, gallery: { name: 'narrow' } });
    assert.ok(Math.abs(first.score - compared.score) < 0.01 * Math.abs(compared.score) + 0.01);
  });

  it('face templates are scored as they are: identity scoring vector, clamped cosine', () => {
    const v = Float32Array.of(0.6, 0.8);
    assert.equal(FACE_TEMPLATES.scoringVector('F500', v), v);
    assert.equal(FACE_TEMPLATES.similarity('F500', v, Float32Array.of(0.6, 0.8000001)), 1);
  });
});

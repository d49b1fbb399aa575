import { loadPadModel, type PadModel } from './pad-classifier.js';

/**
 * The P(live) threshold that rejects `targetBpcer` of bona fide presentations, read off the
 * cross-validated live scores kept with the model (each scored by a model that never saw its person).
 *
 * @example
 * padThreshold(0.05); // the level-4 threshold
 * @throws {Error} when the model holds no held-out live scores; RangeError for a target that is not a number
 */
export function padThreshold(targetBpcer: number, model: PadModel = loadPadModel()): number {
  const live = model.heldOutScores.live;
  if (live.length === 0)
    throw new Error('pad-model.json holds no held-out live scores: retrain it (npm run eval -- train-pad)');
  const index = Math.min(live.length - 1, Math.max(0, Math.floor(targetBpcer * live.length)));
  const threshold = live[index];
  if (threshold === undefined) throw new RangeError(`no held-out live score at a target BPCER of ${targetBpcer}`);
  return threshold;
}

/**
 * `score_frr`: -log10 of the bona fide rejection rate a threshold at this P(live) would cause
 * (share of held-out live scores below it), floored at one in (n + 1).
 *
 * @example
 * scoreFrr(0.9); // e.g. 1.3: a threshold there would turn away ~5% of live users
 */
export function scoreFrr(pLive: number, model: PadModel = loadPadModel()): number {
  const live = model.heldOutScores.live;
  let below = 0; // the scores are ascending: count up to the first that is not below pLive
  for (const score of live) {
    if (!(score < pLive)) break;
    below++;
  }
  return -Math.log10(Math.max(1 / (live.length + 1), below / live.length));
}

/**
 * The face engine computes the hand-made PAD features only when that model decides or when asked
 * (`handmadePadFeatures`): with the ONNX model deciding, a face gets their sharpness alone. The decisions, gates
 * and every other measure must not change.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import sharp from 'sharp';
import { FaceEngine } from '../../../../src/engines/face/face-engine.js';
import type { WorkerAnalysis } from '../../../../src/engines/face/face-analysis-types.js';
import { parseLivenessRequest } from '../../../../src/engines/liveness/liveness-request.js';
import {
  analyzeFrames,
  decidePassiveLiveness,
  type LivenessContext,
} from '../../../../src/engines/liveness/passive-liveness.js';
import { simulatedCapture } from '../../../helpers/camera-simulation.js';
import { closeTestFaceEngine, onPhoneScreen, photoFrame, testFaceEngine } from '../../../helpers/faces.js';

const CONTEXT: LivenessContext = {
  now: Date.now(),
  maxAgeMs: 1e12,
  maxSkewMs: 1e12,
  iadModes: new Map(),
  padModel: 'onnx',
};

let cut: FaceEngine | undefined;
after(async () => {
  await cut?.close();
  await closeTestFaceEngine();
});

async function analyse(engine: FaceEngine, workflow: string, frames: readonly Buffer[]) {
  const request = await parseLivenessRequest(
    { workflow, frames: frames.map((f, i) => ({ data: f.toString('base64'), timestamp: i * 100 })) },
    undefined,
  );
  return { request, frames: await analyzeFrames(engine, request) };
}

/** The analyses without the hand-made features and signals, for comparing everything else. */
function withoutHandmade(frames: readonly WorkerAnalysis[]): unknown {
  return frames.map(({ timings: _timings, decodeMs: _decodeMs, thread: _thread, ...frame }) => ({
    ...frame,
    faces: frame.faces.map((face) => {
      if (!face.liveness) return face;
      const { padFeatures: _features, padSignals: _signals, ...liveness } = face.liveness;
      return { ...face, liveness };
    }),
  }));
}

describe('the hand-made PAD features with the ONNX model deciding', () => {
  it('are left out unless asked for, with the same sharpness, measures, gates and decisions', async () => {
    cut = FaceEngine.start({ workers: 1 });
    const full = testFaceEngine(); // padModel onnx, handmadePadFeatures: true
    const decisions = new Set<string>();
    for (const person of ['anna', 'bella'] as const) {
      const photo = await photoFrame(person);
      const cases: Array<[string, Buffer[]]> = [
        ['foxtrot4', await simulatedCapture(full, photo, { seed: 3 })],
        ['hotel4', [await onPhoneScreen(photo)]],
        ['hotel4', [await sharp(photo).blur(6).jpeg({ quality: 90 }).toBuffer()]],
      ];
      for (const [workflow, frames] of cases) {
        const without = await analyse(cut, workflow, frames);
        const withAll = await analyse(full, workflow, frames);
        const label = `${person} ${workflow} (${frames.length} frames)`;
        const faces = (a: typeof without) => a.frames.flatMap((f) => f.faces.flatMap((face) => face.liveness ?? []));
        assert.ok(faces(without).length > 0, `${label}: a measured face`);
        for (const measures of faces(without)) assert.equal(measures.padFeatures, undefined, label);
        faces(withAll).forEach((measures, i) => {
          assert.ok(measures.padFeatures && measures.padSignals, label);
          // The same value to the bit: cropSharpness repeats analyzeCrop's arithmetic.
          assert.equal(faces(without)[i]?.sharpness, measures.padSignals.sharpness, label);
          assert.equal(measures.sharpness, measures.padSignals.sharpness, label);
        });
        assert.deepEqual(withoutHandmade(without.frames), withoutHandmade(withAll.frames), label);
        const decided = decidePassiveLiveness(without.request, without.frames, CONTEXT);
        assert.deepEqual(decided, decidePassiveLiveness(withAll.request, withAll.frames, CONTEXT), label);
        decisions.add(decided.decision);
      }
    }
    // The comparison crossed the blur gate and both PAD outcomes.
    assert.deepEqual([...decisions].sort(), ['LIVE', 'SPOOF', 'TOO_BLURRY']);
  });

  it('are needed by the hand-made classifier, which says so when they are missing', async () => {
    cut ??= FaceEngine.start({ workers: 1 });
    const { request, frames } = await analyse(cut, 'hotel4', [await photoFrame('carla')]);
    assert.throws(
      () => decidePassiveLiveness(request, frames, { ...CONTEXT, padModel: 'handmade' }),
      /did not compute the hand-made PAD features/,
    );
  });
});

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { serialize, deserialize } from 'node:v8';
import type { AnalyzedFace } from '../../../../src/engines/face/face-analysis-types.js';
import { packFaceMeshes, unpackFaceMeshes } from '../../../../src/engines/face/mesh-transport.js';

/** A face with a 468-point mesh of awkward doubles (negative zero, sub-pixel fractions, large and tiny values). */
function face(seed: number): AnalyzedFace {
  const mesh = Array.from({ length: 468 }, (_, i) => {
    const x = (seed * 1000 + i) / 7;
    return [x, -x / 3 + 1e-12, i === 0 ? -0 : Math.sin(i + seed) * 1e6] as const;
  });
  return {
    box: [10, 20, 200, 210],
    score: 0.97,
    pose: { yaw: 0.1, pitch: -0.05, roll: 0.02 },
    keyPoints: { rightEye: [1, 2], leftEye: [3, 4], mouth: [5, 6] },
    mesh,
    recognitionViews: [Float32Array.from({ length: 128 }, (_, i) => i / 128)],
    description: undefined,
  };
}

describe('mesh transport between a face worker and its caller', () => {
  it('gives back every face with the same mesh values, bit for bit, after a structured clone', () => {
    const faces = [face(1), face(2)];
    const carried = deserialize(serialize(packFaceMeshes(faces))) as ReturnType<typeof packFaceMeshes>;
    const back = unpackFaceMeshes(carried);
    assert.deepEqual(back, faces);
    assert.ok(Object.is(back[0]?.mesh[0]?.[2], -0), 'negative zero kept');
  });

  it('sends each mesh as one flat Float64Array (no per-point arrays to clone)', () => {
    const [packed] = packFaceMeshes([face(3)]);
    assert.ok(packed?.mesh instanceof Float64Array);
    assert.equal(packed.mesh.length, 468 * 3);
    assert.equal(packed.mesh[3], face(3).mesh[1]?.[0]);
  });

  it('keeps a mesh of another length (iris points) and an empty face list', () => {
    const withIris = { ...face(4), mesh: [...face(4).mesh, ...face(5).mesh.slice(0, 10)] };
    assert.deepEqual(unpackFaceMeshes(packFaceMeshes([withIris])), [withIris]);
    assert.deepEqual(unpackFaceMeshes(packFaceMeshes([])), []);
  });
});

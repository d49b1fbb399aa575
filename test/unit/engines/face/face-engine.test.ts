import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FACE_ALGORITHMS } from '../../../../src/engines/face/algorithms.js';
import { FaceEngine } from '../../../../src/engines/face/face-engine.js';
import { DEFAULT_PIPELINE_CONFIG, FacePipeline } from '../../../../src/engines/face/face-pipeline.js';
import { decodeImage, ImageDecodeError } from '../../../../src/engines/face/image-decoding.js';
import { portrait } from '../../../helpers/faces.js';

describe('FaceEngine: queueing', () => {
  let engine: FaceEngine;

  before(async () => {
    engine = FaceEngine.start({ workers: 1 });
    await engine.warm();
  });

  after(async () => {
    await engine.close();
  });

  it('runs queued images first come, first served', async () => {
    // Undecodable bytes take the same path through the queue as photos, and come back quickly.
    const settled: number[] = [];
    const tasks = Array.from({ length: 8 }, (_, i) =>
      engine.analyze(Uint8Array.of(0xff, 0xd8, i), FACE_ALGORITHMS.F200.embeddings).then(
        () => assert.fail(`image ${i} decoded`),
        (error: unknown) => {
          assert.ok(error instanceof ImageDecodeError);
          settled.push(i);
        },
      ),
    );
    await Promise.all(tasks);
    // piscina's default order sent a task it could not place to the back of the queue: 0, 1, 3, 5, 7, 4, 2, 6.
    assert.deepEqual(settled, [0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('answers photos queued behind one another in the order they came', async () => {
    const photo = await portrait('anna', { width: 320 });
    const settled: number[] = [];
    await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        engine.analyze(photo, FACE_ALGORITHMS.F200.embeddings).then((analysis) => {
          assert.equal(analysis.faces.length, 1);
          settled.push(i);
        }),
      ),
    );
    assert.deepEqual(settled, [0, 1, 2, 3]);
  });
});

describe('FaceEngine: what comes back from a worker', () => {
  it('gives the faces the pipeline finds in this thread, meshes and templates equal, with the worker thread’s CPU time', async () => {
    const photo = await portrait('bella', { width: 320 });
    const { embeddings } = FACE_ALGORITHMS.F500;
    const engine = FaceEngine.start({ workers: 1 });
    try {
      const analysis = await engine.analyze(photo, embeddings);
      const pipeline = await FacePipeline.load(DEFAULT_PIPELINE_CONFIG);
      const here = await pipeline.analyze(await decodeImage(photo), embeddings);
      assert.equal(analysis.faces.length, 1);
      assert.deepEqual(
        analysis.faces.map((f) => ({ mesh: f.mesh, box: f.box, views: f.recognitionViews })),
        here.faces.map((f) => ({ mesh: f.mesh, box: f.box, views: f.recognitionViews })),
      );
      assert.ok(Array.isArray(analysis.faces[0]?.mesh[0]), 'mesh points are [x, y, z] again');
      if (process.platform === 'linux') {
        assert.ok(analysis.thread !== undefined, 'the worker reports its thread’s time on Linux');
        assert.ok(analysis.thread.cpuMs > 0);
        assert.ok(analysis.thread.runQueueMs >= 0);
      }
    } finally {
      await engine.close();
    }
  });
});

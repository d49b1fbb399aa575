import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const SCRIPT = fileURLToPath(new URL('../../../helpers/face-worker-packages.ts', import.meta.url));
const TFJS_PACKAGES = /^@tensorflow\/|^@vladmandic\/human$/;

/** The npm packages a fresh process loaded analysing one photo with the given detector (face-worker-packages.ts). */
async function packagesLoaded(mode: 'default' | 'tfjs' | 'onnx'): Promise<{ faces: number; packages: string[] }> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', SCRIPT, mode], {
    timeout: 120_000,
  });
  const parsed: unknown = JSON.parse(stdout.trim().split('\n').at(-1) ?? '');
  assert.ok(typeof parsed === 'object' && parsed !== null && 'faces' in parsed && 'packages' in parsed);
  const { faces, packages } = parsed;
  assert.ok(typeof faces === 'number' && Array.isArray(packages));
  return { faces, packages: packages.filter((p): p is string => typeof p === 'string') };
}

describe('face worker: which detector loads TF.js', () => {
  it('a worker with the default (onnx) detector never imports TF.js or human', async () => {
    const { faces, packages } = await packagesLoaded('default');
    assert.equal(faces, 1);
    assert.ok(packages.includes('onnxruntime-node'), packages.join(', '));
    assert.deepEqual(
      packages.filter((p) => TFJS_PACKAGES.test(p)),
      [],
    );
  });

  it('the tfjs detector, still selectable, loads them (so the check above can see them)', async () => {
    const { faces, packages } = await packagesLoaded('tfjs');
    assert.equal(faces, 1);
    assert.ok(packages.includes('@tensorflow/tfjs-core'), packages.join(', '));
    assert.ok(packages.includes('@vladmandic/human'), packages.join(', '));
  });
});

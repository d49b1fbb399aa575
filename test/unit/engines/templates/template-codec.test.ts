import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  TemplateFormatError,
  decodeTemplate,
  encodeTemplate,
} from '../../../../src/engines/templates/template-codec.js';

const vector = Float32Array.from({ length: 128 }, (_, i) => Math.sin(i * 0.7) * 0.3);

describe('template codec', () => {
  it('round-trips float32 templates exactly', () => {
    const decoded = decodeTemplate(encodeTemplate({ modality: 'face', algorithm: 'F500', vector }));
    assert.equal(decoded.modality, 'face');
    assert.equal(decoded.algorithm, 'F500');
    assert.deepEqual(decoded.vector, vector);
  });

  it('round-trips int8 templates within half a quantisation step, in a quarter of the size', () => {
    const float = encodeTemplate({ modality: 'voice', algorithm: 'V600', vector });
    const int8 = encodeTemplate({ modality: 'voice', algorithm: 'V600', vector }, 'int8');
    assert.equal(int8.length, 18 + 128 + 4);
    assert.ok(int8.length < float.length / 3);
    const decoded = decodeTemplate(int8);
    const step = 0.3 / 127;
    decoded.vector.forEach((v, i) => assert.ok(Math.abs(v - (vector[i] ?? 0)) <= step / 2 + 1e-7, `dimension ${i}`));
  });

  it('rejects damaged, truncated, foreign or future templates', () => {
    const bytes = encodeTemplate({ modality: 'face', algorithm: 'F200', vector });
    const flipped = Buffer.from(bytes);
    flipped[40] = (flipped[40] ?? 0) ^ 1;
    assert.throws(() => decodeTemplate(flipped), /checksum mismatch/);
    assert.throws(() => decodeTemplate(bytes.subarray(0, bytes.length - 1)), /does not match/);
    assert.throws(() => decodeTemplate(Buffer.from('hello world, not a template')), /bad magic/);
    const future = Buffer.from(bytes);
    future[4] = 9;
    assert.throws(() => decodeTemplate(future), /version 9/);
  });

  it('refuses to encode what it could not decode', () => {
    assert.throws(() => encodeTemplate({ modality: 'face', algorithm: 'F5', vector }), TemplateFormatError);
    assert.throws(
      () => encodeTemplate({ modality: 'face', algorithm: 'F500', vector: new Float32Array(0) }),
      TemplateFormatError,
    );
    assert.throws(
      () => encodeTemplate({ modality: 'face', algorithm: 'F500', vector: Float32Array.of(1, Number.NaN) }),
      TemplateFormatError,
    );
  });
});

import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { ExportedTemplateError, exportedTemplateSealer } from '../../../src/crypto/exported-template-sealing.js';
import { templateSealer } from '../../../src/crypto/template-sealing.js';
import { decodeTemplate, encodeTemplate } from '../../../src/engines/templates/template-codec.js';

const secret = Buffer.alloc(32, 3);
const template = encodeTemplate({ modality: 'face', algorithm: 'F500', vector: Float32Array.of(0.5, -0.25, 1) });

describe('exported template sealing', () => {
  const sealer = exportedTemplateSealer(secret);

  it('round-trips, hides the template, and never gives the same bytes twice', () => {
    const sealed = sealer.seal(template);
    assert.equal(sealed.toString('ascii', 0, 4), 'VPTS');
    assert.equal(sealed[4], 1, 'format version');
    assert.equal(sealed.indexOf('VPTM'), -1);
    assert.equal(sealed.length, template.length + 5 + 12 + 16);
    assert.deepEqual(sealer.open(sealed), template);
    assert.deepEqual(decodeTemplate(sealer.open(sealed)).vector, Float32Array.of(0.5, -0.25, 1));
    assert.notDeepEqual(sealer.seal(template), sealer.seal(template), 'a fresh IV every time');
  });

  it('opens under the same secret, from a configured key or a private key alike', () => {
    assert.deepEqual(exportedTemplateSealer(Buffer.alloc(32, 3)).open(sealer.seal(template)), template);
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    assert.deepEqual(
      exportedTemplateSealer(privateKey).open(exportedTemplateSealer(privateKey).seal(template)),
      template,
    );
  });

  it('refuses every single-byte change, truncation and extension', () => {
    const sealed = sealer.seal(template);
    for (let at = 0; at < sealed.length; at += 1) {
      const altered = Buffer.from(sealed);
      altered[at] = (altered[at] ?? 0) ^ 0x80;
      assert.throws(() => sealer.open(altered), ExportedTemplateError, `byte ${at}`);
    }
    assert.throws(() => sealer.open(sealed.subarray(0, sealed.length - 1)), ExportedTemplateError);
    assert.throws(() => sealer.open(Buffer.concat([sealed, Buffer.from([0])])), ExportedTemplateError);
    assert.throws(() => sealer.open(sealed.subarray(0, 20)), /too short/);
    assert.throws(() => sealer.open(Buffer.alloc(0)), /bad magic/);
  });

  it('refuses another key', () => {
    assert.throws(
      () => exportedTemplateSealer(Buffer.alloc(32, 4)).open(sealer.seal(template)),
      /another template key/,
    );
  });

  it('refuses an unsealed template and names it', () => {
    assert.throws(() => sealer.open(template), /unsealed template is not accepted/);
  });

  it('names a future format version', () => {
    const future = sealer.seal(template);
    future[4] = 2;
    assert.throws(() => sealer.open(future), /version 2/);
  });

  it('does not open a template sealed at rest under the same secret, even dressed as an export', () => {
    // The at-rest layout is [version 1, IV, body, tag]: behind `VPTS` it has the export layout exactly,
    // so only the per-purpose key (and the associated data) tells them apart.
    const atRest = templateSealer(secret).seal(template, 'face-matching/staff/alice/F500');
    assert.throws(() => sealer.open(Buffer.concat([Buffer.from('VPTS'), atRest])), ExportedTemplateError);
    assert.throws(() => templateSealer(secret).open(sealer.seal(template).subarray(4), 'VPTS'), /did not open/);
  });
});

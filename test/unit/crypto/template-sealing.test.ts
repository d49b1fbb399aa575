import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { templateSealer, TemplateSealError } from '../../../src/crypto/template-sealing.js';

const key = () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;

describe('template sealing', () => {
  const sealer = templateSealer(key());
  const template = Buffer.from('VPTM template bytes');

  it('round-trips and hides the bytes', () => {
    const sealed = sealer.seal(template, 'face-matching/staff/alice/F500');
    assert.equal(sealed.indexOf('VPTM'), -1);
    assert.deepEqual(sealer.open(sealed, 'face-matching/staff/alice/F500'), template);
    assert.notDeepEqual(sealer.seal(template, 'x'), sealer.seal(template, 'x'), 'a fresh IV every time');
  });

  it('works from a configured secret too, and another secret does not open it', () => {
    const configured = templateSealer(Buffer.alloc(32, 7));
    const sealed = configured.seal(template, 'ctx');
    assert.deepEqual(templateSealer(Buffer.alloc(32, 7)).open(sealed, 'ctx'), template);
    assert.throws(() => templateSealer(Buffer.alloc(32, 8)).open(sealed, 'ctx'), TemplateSealError);
  });

  it('refuses another row, another key, and altered bytes', () => {
    const sealed = sealer.seal(template, 'face-matching/staff/alice/F500');
    assert.throws(() => sealer.open(sealed, 'face-matching/staff/bob/F500'), TemplateSealError);
    assert.throws(() => templateSealer(key()).open(sealed, 'face-matching/staff/alice/F500'), TemplateSealError);
    const altered = Buffer.from(sealed);
    altered[20] = altered[20]! ^ 1;
    assert.throws(() => sealer.open(altered, 'face-matching/staff/alice/F500'), TemplateSealError);
    assert.throws(() => sealer.open(sealed.subarray(0, 10), 'face-matching/staff/alice/F500'), /unknown format/);
  });
});

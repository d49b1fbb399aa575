import assert from 'node:assert/strict';
import {
  createCipheriv,
  generateKeyPairSync,
  publicEncrypt,
  randomBytes,
  constants,
  type KeyObject,
} from 'node:crypto';
import { describe, it } from 'node:test';
import { encryptEnvelope } from '../../../src/client/envelope.js';
import { InvalidBase64Error, decodeBase64 } from '../../../src/crypto/base64.js';
import { EnvelopeError, decryptEnvelope, decryptJsonEnvelope } from '../../../src/crypto/envelope.js';
import { ENVELOPE_PURPOSES, envelopeAssociatedData, isEnvelopePurpose } from '../../../src/lib/envelope-purpose.js';
import { testEnvelopeKeys } from '../../helpers/app.js';

/** The face-liveness pair of the test ring: these tests seal for it unless they say otherwise. */
const keys = testEnvelopeKeys().key('face-liveness');
const seal = (payload: string | Uint8Array, publicKey: string | KeyObject = keys.publicKey) =>
  encryptEnvelope(payload, publicKey, 'face-liveness');
const flipByte = (base64: string, index: number): string => {
  const bytes = Buffer.from(base64, 'base64');
  bytes[index] = (bytes[index] ?? 0) ^ 0x01;
  return bytes.toString('base64');
};
const failure = (f: EnvelopeError['failure']) => (error: unknown) =>
  error instanceof EnvelopeError && error.failure === f;

describe('envelope', () => {
  it('round-trips text and binary payloads', () => {
    const text = JSON.stringify({ video: { workflow_data: { workflow: 'hotel2', frames: [] } } });
    assert.equal(decryptEnvelope(seal(text), keys).toString('utf8'), text);
    const binary = Buffer.from([0, 255, 1, 254, 7]);
    assert.deepEqual(decryptEnvelope(seal(binary), keys), binary);
    assert.deepEqual(decryptEnvelope(seal(''), keys), Buffer.alloc(0));
  });

  it('uses a fresh key and nonce every time', () => {
    const a = seal('same');
    const b = seal('same');
    assert.notEqual(a.key, b.key);
    assert.notEqual(a.iv, b.iv);
    assert.notEqual(a.p, b.p);
    assert.equal(Buffer.from(a.iv, 'base64').length, 12);
  });

  it('rejects a tampered ciphertext, tag or nonce', () => {
    const envelope = seal('{"a":1}');
    assert.throws(() => decryptEnvelope({ ...envelope, p: flipByte(envelope.p, 0) }, keys), failure('tampered'));
    const lastByte = Buffer.from(envelope.p, 'base64').length - 1;
    assert.throws(() => decryptEnvelope({ ...envelope, p: flipByte(envelope.p, lastByte) }, keys), failure('tampered'));
    assert.throws(() => decryptEnvelope({ ...envelope, iv: flipByte(envelope.iv, 3) }, keys), failure('tampered'));
  });

  it('rejects a truncated package', () => {
    const envelope = seal('{"a":1}');
    const sealed = Buffer.from(envelope.p, 'base64');
    assert.throws(
      () => decryptEnvelope({ ...envelope, p: sealed.subarray(0, sealed.length - 1).toString('base64') }, keys),
      failure('tampered'),
    );
    assert.throws(
      () => decryptEnvelope({ ...envelope, p: sealed.subarray(0, 10).toString('base64') }, keys),
      failure('truncated'),
    );
    assert.throws(
      () => decryptEnvelope({ ...envelope, iv: Buffer.alloc(8).toString('base64') }, keys),
      failure('bad-iv'),
    );
  });

  it('rejects a package made for another key, or with an altered key', () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const envelope = seal('{"a":1}', other.publicKey);
    assert.throws(() => decryptEnvelope(envelope, keys), failure('wrong-key'));
    const mine = seal('{"a":1}');
    assert.throws(() => decryptEnvelope({ ...mine, key: flipByte(mine.key, 5) }, keys), failure('wrong-key'));
  });

  it('rejects members that are not base64, naming the member', () => {
    const envelope = seal('{}');
    assert.throws(
      () => decryptEnvelope({ ...envelope, iv: 'not base64!' }, keys),
      (error: unknown) => error instanceof InvalidBase64Error && error.field === 'iv',
    );
  });

  it('parses JSON payloads and rejects others', () => {
    assert.deepEqual(decryptJsonEnvelope(seal('[1,{"b":2}]'), keys), [1, { b: 2 }]);
    assert.throws(() => decryptJsonEnvelope(seal('not json'), keys), failure('not-json'));
  });
});

/** An envelope built by hand with the given additional data (undefined: none, as before purposes existed). */
function handSealed(payload: string, publicKey: KeyObject, additionalData: string | undefined) {
  const aesKey = randomBytes(32);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', aesKey, iv);
  if (additionalData !== undefined) cipher.setAAD(Buffer.from(additionalData, 'utf8'));
  const p = Buffer.concat([cipher.update(payload, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  const key = publicEncrypt({ key: publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, aesKey);
  return { key: key.toString('base64'), iv: iv.toString('base64'), p: p.toString('base64') };
}

describe('envelope purposes (issue 14 item 5: no decryption oracle)', () => {
  it("binds 'veriport envelope v1 <purpose>' as the AES-GCM additional data", () => {
    assert.equal(envelopeAssociatedData('onboarding').toString('utf8'), 'veriport envelope v1 onboarding');
    const byHand = handSealed('{"a":1}', keys.publicKey, 'veriport envelope v1 face-liveness');
    assert.deepEqual(decryptJsonEnvelope(byHand, keys), { a: 1 });
  });

  it('refuses an envelope sealed under the right key for another purpose (additional data alone differs)', () => {
    const forOnboarding = encryptEnvelope('{"secret":1}', keys.publicKey, 'onboarding');
    assert.throws(() => decryptJsonEnvelope(forOnboarding, keys), failure('tampered'));
    assert.throws(
      () => decryptEnvelope(seal('{"secret":1}'), { purpose: 'onboarding', privateKey: keys.privateKey }),
      (error: unknown) => failure('tampered')(error) && /another purpose than 'onboarding'/.test(String(error)),
    );
    for (const label of [undefined, '', 'veriport envelope v1', 'veriport envelope v1 face-liveness ', 'x']) {
      assert.throws(() => decryptEnvelope(handSealed('{}', keys.publicKey, label), keys), failure('tampered'), label);
    }
  });

  it('refuses an envelope sealed with another purpose key (wrong key and wrong additional data)', () => {
    const onboarding = testEnvelopeKeys().key('onboarding');
    const envelope = encryptEnvelope('{"secret":1}', onboarding.publicKey, 'onboarding');
    assert.throws(() => decryptJsonEnvelope(envelope, keys), failure('wrong-key'));
    assert.deepEqual(decryptJsonEnvelope(envelope, onboarding), { secret: 1 });
  });

  it('names the purposes in one typed list', () => {
    assert.deepEqual([...ENVELOPE_PURPOSES].sort(), [
      'document-autocapture',
      'document-validation',
      'face-analysis',
      'face-liveness',
      'onboarding',
      'voice-liveness',
    ]);
    assert.ok(isEnvelopePurpose('face-liveness'));
    assert.ok(!isEnvelopePurpose('face-matching'));
    assert.ok(!isEnvelopePurpose('envelope'));
  });
});

describe('decodeBase64', () => {
  it('accepts padded and unpadded standard base64', () => {
    assert.deepEqual(decodeBase64('aGk=', 'x'), Buffer.from('hi'));
    assert.deepEqual(decodeBase64('aGk', 'x'), Buffer.from('hi'));
    assert.deepEqual(decodeBase64('', 'x'), Buffer.alloc(0));
  });
  it('rejects junk that Node would silently skip', () => {
    for (const bad of ['a$b=', 'aGk=aGk=', 'a', '-_-_', 'aG k=']) {
      assert.throws(() => decodeBase64(bad, 'field'), InvalidBase64Error, bad);
    }
  });
});

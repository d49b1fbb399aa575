import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { encryptEnvelope } from '../../../src/client/envelope.js';
import { InvalidBase64Error, decodeBase64 } from '../../../src/crypto/base64.js';
import { EnvelopeError, decryptEnvelope, decryptJsonEnvelope } from '../../../src/crypto/envelope.js';
import { testServerKeys } from '../../helpers/app.js';

const keys = testServerKeys();
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
    assert.equal(decryptEnvelope(encryptEnvelope(text, keys.publicKeyPem), keys.privateKey).toString('utf8'), text);
    const binary = Buffer.from([0, 255, 1, 254, 7]);
    assert.deepEqual(decryptEnvelope(encryptEnvelope(binary, keys.publicKey), keys.privateKey), binary);
    assert.deepEqual(decryptEnvelope(encryptEnvelope('', keys.publicKey), keys.privateKey), Buffer.alloc(0));
  });

  it('uses a fresh key and nonce every time', () => {
    const a = encryptEnvelope('same', keys.publicKey);
    const b = encryptEnvelope('same', keys.publicKey);
    assert.notEqual(a.key, b.key);
    assert.notEqual(a.iv, b.iv);
    assert.notEqual(a.p, b.p);
    assert.equal(Buffer.from(a.iv, 'base64').length, 12);
  });

  it('rejects a tampered ciphertext, tag or nonce', () => {
    const envelope = encryptEnvelope('{"a":1}', keys.publicKey);
    assert.throws(
      () => decryptEnvelope({ ...envelope, p: flipByte(envelope.p, 0) }, keys.privateKey),
      failure('tampered'),
    );
    const lastByte = Buffer.from(envelope.p, 'base64').length - 1;
    assert.throws(
      () => decryptEnvelope({ ...envelope, p: flipByte(envelope.p, lastByte) }, keys.privateKey),
      failure('tampered'),
    );
    assert.throws(
      () => decryptEnvelope({ ...envelope, iv: flipByte(envelope.iv, 3) }, keys.privateKey),
      failure('tampered'),
    );
  });

  it('rejects a truncated package', () => {
    const envelope = encryptEnvelope('{"a":1}', keys.publicKey);
    const sealed = Buffer.from(envelope.p, 'base64');
    assert.throws(
      () =>
        decryptEnvelope({ ...envelope, p: sealed.subarray(0, sealed.length - 1).toString('base64') }, keys.privateKey),
      failure('tampered'),
    );
    assert.throws(
      () => decryptEnvelope({ ...envelope, p: sealed.subarray(0, 10).toString('base64') }, keys.privateKey),
      failure('truncated'),
    );
    assert.throws(
      () => decryptEnvelope({ ...envelope, iv: Buffer.alloc(8).toString('base64') }, keys.privateKey),
      failure('bad-iv'),
    );
  });

  it('rejects a package made for another key, or with an altered key', () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const envelope = encryptEnvelope('{"a":1}', other.publicKey);
    assert.throws(() => decryptEnvelope(envelope, keys.privateKey), failure('wrong-key'));
    const mine = encryptEnvelope('{"a":1}', keys.publicKey);
    assert.throws(
      () => decryptEnvelope({ ...mine, key: flipByte(mine.key, 5) }, keys.privateKey),
      failure('wrong-key'),
    );
  });

  it('rejects members that are not base64, naming the member', () => {
    const envelope = encryptEnvelope('{}', keys.publicKey);
    assert.throws(
      () => decryptEnvelope({ ...envelope, iv: 'not base64!' }, keys.privateKey),
      (error: unknown) => error instanceof InvalidBase64Error && error.field === 'iv',
    );
  });

  it('parses JSON payloads and rejects others', () => {
    assert.deepEqual(decryptJsonEnvelope(encryptEnvelope('[1,{"b":2}]', keys.publicKey), keys.privateKey), [
      1,
      { b: 2 },
    ]);
    assert.throws(
      () => decryptJsonEnvelope(encryptEnvelope('not json', keys.publicKey), keys.privateKey),
      failure('not-json'),
    );
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

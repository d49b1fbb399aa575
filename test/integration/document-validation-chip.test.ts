import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { DocumentEngine } from '../../src/engines/document/document-engine.js';
import type { ValidateResponse } from '../../src/services/document-validation/schemas.js';
import { testApp, testSeal } from '../helpers/app.js';
import {
  testDataGroup1,
  testDataGroup2,
  testPki,
  testSecurityObject,
  type SodOptions,
  type TestPki,
} from '../helpers/chip-pki.js';
import { photographPage, requireOcrBFont } from '../helpers/document-render.js';
import { closeTestFaceEngine, portrait, testFaceEngine } from '../helpers/faces.js';
import { httpGet, httpPost } from '../helpers/http.js';
import { composeMrz, SPECIMEN_TRUTH } from '../helpers/mrz-composer.js';

const MRZ = composeMrz('TD3', SPECIMEN_TRUTH);
const URL = '/document-validation/validate';

let engine: DocumentEngine;
let app: FastifyInstance;
let page: string;
let face: Buffer;
let trusted: TestPki;
const trustFolder = mkdtempSync(join(tmpdir(), 'veriport-chip-'));

/** The chip files of a passport as JSON members (`dg1`, `dg2`, `sod`), base64. */
function chipJson(pki: TestPki, mrz: readonly string[] = MRZ, options: SodOptions = {}): Record<string, string> {
  const dataGroups = new Map<number, Uint8Array>([
    [1, testDataGroup1(mrz)],
    [2, testDataGroup2(face, 120, 150)],
  ]);
  const sod = testSecurityObject(pki, dataGroups, options);
  return {
    dg1: Buffer.from(dataGroups.get(1) ?? []).toString('base64'),
    dg2: Buffer.from(dataGroups.get(2) ?? []).toString('base64'),
    sod: sod.toString('base64'),
  };
}

const validate = (encryptedDocument: unknown) =>
  httpPost(app, URL, { documentImages: [{ image: page, pageIndex: 0 }], encryptedDocument });

function body(response: LightMyRequestResponse): ValidateResponse {
  assert.equal(response.statusCode, 200, response.body);
  return response.json<ValidateResponse>();
}

before(async () => {
  requireOcrBFont();
  face = await sharp(await portrait('anna', { margin: 0.25 }))
    .resize({ width: 120, height: 150, fit: 'cover' })
    .jpeg({ quality: 90 })
    .toBuffer();
  page = (await photographPage('TD3', MRZ, { quality: 95 })).toString('base64');
  trusted = testPki({ cscaKind: 'brainpoolP256r1' });
  writeFileSync(join(trustFolder, 'utopia-csca.der'), trusted.csca);
  engine = DocumentEngine.start();
  app = await testApp(
    { VERIPORT_TRUST_STORE_DIR: trustFolder },
    { documentEngine: engine, faceEngine: testFaceEngine() },
  );
});
after(async () => {
  await app.close();
  await engine.close();
  await closeTestFaceEngine();
  rmSync(trustFolder, { recursive: true, force: true });
});

describe('document validation: chip passive authentication through HTTP', () => {
  it('passes a genuine chip (brainpoolP256r1 PKI): DG1 fields, DG2 portrait, overall PASS', async () => {
    const answer = body(await validate(chipJson(trusted)));
    assert.deepEqual(answer.security.rfid, {
      basicAccessControl: 'NOT_PERFORMED',
      activeAuthentication: 'NOT_PERFORMED',
      chipAuthentication: 'NOT_PERFORMED',
      pace: 'NOT_PERFORMED',
      passiveAuthentication: 'PASS',
      overall: 'PASS',
    });
    assert.deepEqual(answer.security.reasons, []);
    assert.equal(answer.security.overall, 'PASS');
    assert.deepEqual(answer.fields.rfid, answer.fields.mrz);
    assert.equal(answer.fields.rfid.surname, 'ERIKSSON');
    assert.deepEqual(answer.fields.overall, answer.fields.rfid);
    assert.deepEqual(Buffer.from(answer.images.rfidPortrait ?? '', 'base64'), face);
  });

  it('fails a chip whose DG1 is another document than the page, field by field', async () => {
    const other = composeMrz('TD3', { ...SPECIMEN_TRUTH, surname: 'ERIKSEN', documentNumber: 'X12345678' });
    const answer = body(await validate(chipJson(trusted, other)));
    assert.equal(answer.security.rfid.passiveAuthentication, 'FAIL');
    assert.equal(answer.security.overall, 'FAIL');
    assert.deepEqual(answer.security.reasons, [
      'CHIP_DG1_MRZ_MISMATCH',
      'CHIP_DG1_MRZ_MISMATCH_SURNAME',
      'CHIP_DG1_MRZ_MISMATCH_DOCUMENT_NUMBER',
    ]);
    assert.equal(answer.fields.rfid.surname, 'ERIKSEN');
    assert.equal(answer.fields.mrz.surname, 'ERIKSSON');
    // The chip's data is itself authentic, so the overall fields are the chip's.
    assert.equal(answer.fields.overall.surname, 'ERIKSEN');
  });

  it('answers incorrectDsCertificate for a chip signed under an unknown CSCA, and FAIL for a broken signature', async () => {
    const unknown = body(await validate(chipJson(testPki({ cscaName: 'CSCA Elsewhere' }))));
    assert.equal(unknown.security.rfid.passiveAuthentication, 'incorrectDsCertificate');
    assert.equal(unknown.security.rfid.overall, 'FAIL');
    assert.deepEqual(unknown.security.reasons, ['CHIP_CSCA_UNKNOWN']);
    // Not proven: the overall fields stay the page's.
    assert.deepEqual(unknown.fields.overall, unknown.fields.mrz);
    const broken = body(await validate(chipJson(trusted, MRZ, { corruptSignature: true })));
    assert.equal(broken.security.rfid.passiveAuthentication, 'FAIL');
    assert.deepEqual(broken.security.reasons, ['CHIP_SOD_SIGNATURE_INVALID']);
  });

  it('opens chip data sealed as {key, iv, p} with the key GET /getPublicKey serves', async () => {
    const pem = await httpGet(app, '/document-validation/getPublicKey');
    assert.equal(pem.statusCode, 200);
    assert.match(pem.body, /BEGIN PUBLIC KEY/);
    const sealed = testSeal(JSON.stringify(chipJson(trusted)), 'document-validation');
    const answer = body(await validate(sealed));
    assert.equal(answer.security.rfid.passiveAuthentication, 'PASS');
    // Sealed for another service: refused.
    const wrong = await validate(testSeal(JSON.stringify(chipJson(trusted)), 'document-autocapture'));
    assertSpring(wrong, /encrypted package rejected/);
  });

  it('answers malformed chip data with a 400 in the Doc 3 C body, never a 500', async () => {
    const good = chipJson(trusted);
    const cases: [unknown, RegExp][] = [
      [{ dg1: good.dg1 }, /sod/],
      [{ sod: good.sod }, /dg1/],
      [{ ...good, sod: 'bm90IGEgU09E' }, /EF\.SOD/],
      [{ ...good, sod: '%%%' }, /base64/],
      [{ ...good, dg1: 'YQE=' }, /encryptedDocument/],
      [{ ...good, dg2: 'dQMBAgM=' }, /encryptedDocument/],
      [{ ...good, dsCertificate: 'MAMCAQE=' }, /certificate/],
      [{ ...good, dg3: 12 }, /dg3 must be a base64 string/],
      [{ key: 'AAAA', iv: 'AAAA', p: 'AAAA' }, /encrypted package rejected/],
    ];
    for (const [encryptedDocument, message] of cases) assertSpring(await validate(encryptedDocument), message);
  });
});

function assertSpring(response: LightMyRequestResponse, message: RegExp): void {
  assert.equal(response.statusCode, 400, response.body);
  const error = response.json<Record<string, unknown>>();
  assert.deepEqual(Object.keys(error).sort(), ['error', 'message', 'path', 'status', 'timestamp']);
  assert.match(String(error.message), message);
}

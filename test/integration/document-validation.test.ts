import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { usageCountersRepository } from '../../src/store/usage-counters.js';
import type { ValidateResponse } from '../../src/services/document-validation/schemas.js';
import { currentPeriod } from '../helpers/app.js';
import { documentTestParts, type DocumentTestParts } from '../helpers/document-app.js';
import { photographPage, requireOcrBFont } from '../helpers/document-render.js';
import { portrait, testFaceEngine } from '../helpers/faces.js';
import { httpPost } from '../helpers/http.js';
import { checkDigitOf, composeMrz, SPECIMEN_TRUTH } from '../helpers/mrz-composer.js';

const MRZ = composeMrz('TD3', SPECIMEN_TRUTH);
const URL = '/document-validation/validate';

let parts: DocumentTestParts;
let app: FastifyInstance;

/**
 * A TD3 page photo with a face in its photo block: the renderer's block (5, 8 mm; 26 × 32 mm at 8 px/mm) on a
 * page centred on a canvas 1.3 × 1.4 its size (document-render.ts), so at (150 + 40, 141 + 64).
 */
async function passportWithFace(mrz: readonly string[]): Promise<Buffer> {
  const photo = await photographPage('TD3', mrz, { quality: 95 });
  const face = await sharp(await portrait('anna', { margin: 0.25 }))
    .resize({ width: 208, height: 256, fit: 'cover' })
    .toBuffer();
  return sharp(photo)
    .composite([{ input: face, left: 190, top: 205 }])
    .jpeg({ quality: 92 })
    .toBuffer();
}

const validate = (images: readonly Buffer[], extra: object = {}) =>
  httpPost(app, URL, {
    documentImages: images.map((image, pageIndex) => ({ image: image.toString('base64'), pageIndex })),
    ...extra,
  });

function assertSpringError(response: LightMyRequestResponse, status: number, message?: RegExp): void {
  assert.equal(response.statusCode, status, response.body);
  const body = response.json<Record<string, unknown>>();
  assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'path', 'status', 'timestamp']);
  assert.equal(body.status, status);
  assert.equal(body.path, URL);
  if (message) assert.match(String(body.message), message);
}

before(async () => {
  requireOcrBFont();
  parts = await documentTestParts();
  app = await parts.app();
});
after(async () => {
  await app.close();
  await parts.close();
});

describe('document validation (Doc 3 C) through HTTP', () => {
  it('reads a TD3 page: MRZ fields with check digits, quality, page crop, the printed portrait, chip not performed', async () => {
    // Free-form capture-SDK JSON without chip members: chip checks are not performed (chip data: the chip test file).
    const response = await validate([await passportWithFace(MRZ)], { encryptedDocument: { sdkVersion: '4.2' } });
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json<ValidateResponse>();
    assert.deepEqual(body.fields.mrz, {
      documentCode: 'P',
      issuingState: 'UTO',
      surname: 'ERIKSSON',
      givenName: 'ANNA MARIA',
      documentNumber: 'L898902C3',
      nationality: 'UTO',
      dateOfBirth: { year: 1974, month: 8, day: 12, text: '740812' },
      gender: 'F',
      dateOfExpiry: { year: 2032, month: 4, day: 15, text: '320415' },
      // TD3's optional data is the personal number.
      personalNumber: 'ZE184226B',
    });
    assert.deepEqual(body.fields.overall, body.fields.mrz);
    assert.deepEqual(body.fields.optical, {});
    assert.equal(body.mrz?.format, 'TD3');
    assert.ok(body.mrz.checkDigits.length === 5 && body.mrz.checkDigits.every((c) => c.valid));
    assert.ok((body.mrz.fieldConfidence.documentNumber ?? 0) >= 0.9);
    assert.equal(body.security.optical.overall, 'PASS');
    assert.equal(body.security.overall, 'PASS');
    assert.deepEqual(body.security.reasons, []);
    // No chip data: every chip check says so, and no chip portrait is made up.
    assert.ok(Object.values(body.security.rfid).every((value) => value === 'NOT_PERFORMED'));
    assert.equal(body.images.rfidPortrait, undefined);
    assert.deepEqual(body.info.documentType, [{ name: 'PASSPORT', pageIndex: 0, format: 'TD3' }]);
    const [quality] = body.quality.results;
    assert.ok(quality);
    assert.equal(quality.pageIndex, 0);
    assert.equal(quality.blur, 'PASS');
    assert.equal(quality.resolution, 'PASS');
    const [page] = body.images.document;
    assert.ok(page);
    const pageMeta = await sharp(Buffer.from(page.image, 'base64')).metadata();
    assert.equal(pageMeta.width, 1000);
    // The portrait is a face the face engine finds again, as a face-matching probe would need.
    assert.ok(body.images.opticalPortrait);
    const cut = await testFaceEngine().analyze(Buffer.from(body.images.opticalPortrait, 'base64'), {
      views: [],
      description: false,
    });
    assert.equal(cut.faces.length, 1);
    assert.ok(cut.width < 400, `a portrait, not the page (${cut.width} px wide)`);
  });

  it('flags a page whose printed check digits are wrong as a security failure, not repaired into validity', async () => {
    const right = Number(checkDigitOf(SPECIMEN_TRUTH.dateOfBirth));
    const wrongDigit = String((right + 5) % 10);
    const [line1 = '', line2 = ''] = MRZ;
    const tampered = [line1, `${line2.slice(0, 19)}${wrongDigit}${line2.slice(20)}`];
    const response = await validate([await photographPage('TD3', tampered)]);
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json<ValidateResponse>();
    assert.equal(body.security.optical.overall, 'FAIL');
    assert.equal(body.security.overall, 'FAIL');
    assert.ok(body.security.reasons.includes('MRZ_CHECK_DIGIT_DATE_OF_BIRTH'), body.security.reasons.join());
    assert.equal(body.mrz?.valid, false);
    assert.equal(body.fields.mrz.surname, 'ERIKSSON');
  });

  it('a blank page: no MRZ, no fields, checks NOT_PERFORMED, 200', async () => {
    const response = await validate([await photographPage('TD3', MRZ, { withoutMrz: true })]);
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json<ValidateResponse>();
    assert.deepEqual(body.fields.mrz, {});
    assert.deepEqual(body.images.document, []);
    assert.equal(body.mrz, undefined);
    assert.equal(body.security.optical.overall, 'NOT_PERFORMED');
    assert.equal(body.security.overall, 'NOT_PERFORMED');
    assert.deepEqual(body.info.documentType, [{ name: 'UNKNOWN', pageIndex: 0 }]);
    assert.equal(body.quality.results[0]?.blur, 'NOT_PERFORMED');
  });

  it('answers bad input with a 400 in the Doc 3 C body, never a 500', async () => {
    assertSpringError(await validate([Buffer.from('not an image')]), 400, /documentImages\[0\]\.image/);
    assertSpringError(await httpPost(app, URL, { documentImages: [{ image: '%%%', pageIndex: 0 }] }), 400, /base64/);
    assertSpringError(await httpPost(app, URL, {}), 400, /documentImages/);
    assertSpringError(await httpPost(app, URL, { documentImages: [] }), 400);
    assertSpringError(await httpPost(app, URL, { documentImages: [{ image: 'aGk=' }] }), 400, /pageIndex/);
    assertSpringError(
      await httpPost(app, URL, {
        documentImages: [
          { image: 'aGk=', pageIndex: 1 },
          { image: 'aGk=', pageIndex: 1 },
        ],
      }),
      400,
      /twice/,
    );
    assertSpringError(await httpPost(app, URL, '{"documentImages":', 'application/json'), 400);
  });

  it('counts its calls in the usage report', async () => {
    await app.close();
    const { year, month } = currentPeriod();
    const rows = await usageCountersRepository(parts.store.db).list({ serverName: 'document-validation', year, month });
    assert.ok((rows.find((r) => r.endpoint === '/validate')?.counter ?? 0) >= 3);
    app = await parts.app();
  });
});

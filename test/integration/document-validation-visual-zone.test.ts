import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { ValidateResponse } from '../../src/services/document-validation/schemas.js';
import { documentTestParts, type DocumentTestParts } from '../helpers/document-app.js';
import { photographPage, printedFields, requireOcrBFont } from '../helpers/document-render.js';
import { httpPost } from '../helpers/http.js';
import { composeMrz, SPECIMEN_TRUTH } from '../helpers/mrz-composer.js';

const URL = '/document-validation/validate';
const MRZ = composeMrz('TD3', SPECIMEN_TRUTH);
/** `12 AUG/AOUT 1974`, `15 APR/AVR 2032`: what the MRZ truth holds, printed. */
const PRINTED = printedFields(SPECIMEN_TRUTH);

let parts: DocumentTestParts;
let app: FastifyInstance;

async function validate(image: Buffer): Promise<ValidateResponse> {
  const response = await httpPost(app, URL, { documentImages: [{ image: image.toString('base64'), pageIndex: 0 }] });
  assert.equal(response.statusCode, 200, response.body);
  return response.json<ValidateResponse>();
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

describe('document validation: the visual inspection zone', () => {
  it('reads the printed names and dates into fields.optical, consistent with the MRZ: no reason', async () => {
    const body = await validate(await photographPage('TD3', MRZ, { printed: PRINTED, rotate: 2 }));
    assert.equal(body.fields.optical.surname, 'ERIKSSON');
    assert.equal(body.fields.optical.givenName, 'ANNA MARIA');
    assert.deepEqual(
      [
        body.fields.optical.dateOfBirth?.year,
        body.fields.optical.dateOfBirth?.month,
        body.fields.optical.dateOfBirth?.day,
      ],
      [1974, 8, 12],
    );
    assert.deepEqual(
      [
        body.fields.optical.dateOfExpiry?.year,
        body.fields.optical.dateOfExpiry?.month,
        body.fields.optical.dateOfExpiry?.day,
      ],
      [2032, 4, 15],
    );
    assert.equal(body.fields.optical.documentNumber, 'L898902C3');
    assert.equal(body.fields.optical.gender, 'F');
    // The optical fields are the printed text, not copies of the MRZ's.
    assert.match(body.fields.optical.dateOfBirth?.text ?? '', /AUG/);
    assert.deepEqual(body.fields.overall, body.fields.mrz, 'a valid MRZ stands over the visual zone');
    assert.deepEqual(body.security.reasons, []);
    assert.equal(body.security.optical.overall, 'PASS');
  });

  it('with the MRZ cut off, overall still has the name and dates, from the visual zone', async () => {
    const body = await validate(await photographPage('TD3', MRZ, { printed: PRINTED, withoutMrz: true }));
    assert.deepEqual(body.fields.mrz, {});
    assert.equal(body.fields.overall.surname, 'ERIKSSON');
    assert.equal(body.fields.overall.givenName, 'ANNA MARIA');
    assert.equal(body.fields.overall.dateOfBirth?.year, 1974);
    assert.equal(body.fields.overall.dateOfExpiry?.year, 2032);
    assert.equal(body.security.optical.overall, 'NOT_PERFORMED', 'nothing to compare the printed zone with');
  });

  it('with a damaged MRZ (birth date altered, its check digit failing), overall takes the printed birth date', async () => {
    const [line1 = '', line2 = ''] = MRZ;
    // 740812 -> 740819: the check digit after it no longer holds.
    const damaged = [line1, `${line2.slice(0, 18)}9${line2.slice(19)}`];
    const body = await validate(await photographPage('TD3', damaged, { printed: PRINTED }));
    assert.equal(body.fields.mrz.dateOfBirth?.day, 19);
    assert.ok(body.security.reasons.includes('MRZ_CHECK_DIGIT_DATE_OF_BIRTH'), body.security.reasons.join());
    assert.deepEqual(
      [
        body.fields.overall.dateOfBirth?.year,
        body.fields.overall.dateOfBirth?.month,
        body.fields.overall.dateOfBirth?.day,
      ],
      [1974, 8, 12],
    );
    assert.equal(body.fields.overall.surname, 'ERIKSSON');
    assert.equal(body.fields.overall.dateOfExpiry?.day, 15, 'the expiry, its check digit valid, stays the MRZ’s');
  });

  it('a printed surname that differs from the MRZ is a conflict in security.reasons', async () => {
    const body = await validate(await photographPage('TD3', MRZ, { printed: { ...PRINTED, surname: 'JOHANSSON' } }));
    assert.equal(body.fields.optical.surname, 'JOHANSSON');
    assert.equal(body.fields.overall.surname, 'ERIKSSON', 'the valid MRZ stands; the conflict is reported');
    assert.ok(body.security.reasons.includes('VIZ_MRZ_MISMATCH_SURNAME'), body.security.reasons.join());
    assert.ok(!body.security.reasons.includes('VIZ_MRZ_MISMATCH_DATE_OF_BIRTH'), body.security.reasons.join());
    assert.equal(body.security.optical.overall, 'FAIL');
    assert.equal(body.security.overall, 'FAIL');
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import type { FastifyInstance } from 'fastify';
import { DocumentEngine } from '../../src/engines/document/document-engine.js';
import { openStore, type Store } from '../../src/store/database.js';
import { usageCountersRepository } from '../../src/store/usage-counters.js';
import { currentPeriod, testApp, testSeal } from '../helpers/app.js';
import { photographPage, requireOcrBFont } from '../helpers/document-render.js';
import { assertCodedError, httpPost } from '../helpers/http.js';
import { composeMrz, SPECIMEN_TRUTH } from '../helpers/mrz-composer.js';

const MRZ = composeMrz('TD3', SPECIMEN_TRUTH);
const URL = '/document-autocapture';

let engine: DocumentEngine;
let store: Store;
let app: FastifyInstance;
let passport: string;
let blank: string;

const autocapture = (documentType: string, images: string[]) =>
  httpPost(app, `${URL}/autocaptureDocument`, { workflow: { documentType }, images: images.map((data) => ({ data })) });

before(async () => {
  requireOcrBFont();
  engine = DocumentEngine.start();
  store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  app = await testApp({}, { store, documentEngine: engine });
  passport = (await photographPage('TD3', MRZ)).toString('base64');
  blank = (await photographPage('TD3', MRZ, { withoutMrz: true })).toString('base64');
});
after(async () => {
  await app.close();
  await engine.close();
  await store.close();
});

describe('document autocapture (Doc 2 B) through HTTP', () => {
  it('finds and captures a passport page asked as PASSPORT; the same page is WRONG_DOCUMENT as a card', async () => {
    const found = await autocapture('PASSPORT', [passport]);
    assert.equal(found.statusCode, 200, found.body);
    assert.deepEqual(found.json(), {
      results: { captured: true, capturedImageIndex: 0, imageResults: [{ imageIndex: 0, feedback: 'DOCUMENT_FOUND' }] },
    });
    const wrong = await autocapture('DRIVERS_LICENSE', [passport]);
    assert.deepEqual(wrong.json(), {
      results: {
        captured: false,
        capturedImageIndex: -1,
        imageResults: [{ imageIndex: 0, feedback: 'WRONG_DOCUMENT' }],
      },
    });
  });

  it('a page without MRZ is DOCUMENT_NOT_FOUND; in a sequence the capture waits for two frames that agree', async () => {
    const response = await autocapture('PASSPORT', [blank, passport, passport]);
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), {
      results: {
        captured: true,
        capturedImageIndex: 2,
        imageResults: [
          { imageIndex: 0, feedback: 'DOCUMENT_NOT_FOUND' },
          { imageIndex: 1, feedback: 'DOCUMENT_FOUND' },
          { imageIndex: 2, feedback: 'DOCUMENT_FOUND' },
        ],
      },
    });
  });

  it('opens the encrypted variant sealed for document-autocapture', async () => {
    const sealed = testSeal(
      JSON.stringify({ workflow: { documentType: 'PASSPORT' }, images: [{ data: blank }] }),
      'document-autocapture',
    );
    const response = await httpPost(app, `${URL}/autocaptureDocumentEncrypted`, sealed);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json<{ results: { captured: boolean } }>().results.captured, false);
    const other = testSeal('{}', 'face-liveness');
    assertCodedError(await httpPost(app, `${URL}/autocaptureDocumentEncrypted`, other), 400, -6);
  });

  it('gives the capture parameters and region of each document type', async () => {
    const parameters = await httpPost(app, `${URL}/getCaptureParameters`, { workflow: { documentType: 'PASSPORT' } });
    assert.deepEqual(parameters.json(), { minimumResolution: { width: 375, height: 264 } });
    const region = await httpPost(app, `${URL}/getCaptureRegion`, {
      workflow: { documentType: 'DRIVERS_LICENSE' },
      captureResolution: { width: 1280, height: 720 },
    });
    assert.deepEqual(region.json(), { x: 128, y: 37, width: 1024, height: 646 });
    // A large share keeps the ratio within the frame: height-bound.
    const custom = await httpPost(app, `${URL}/getCaptureRegion`, {
      workflow: { documentType: 'CUSTOM', aspectRatioWidth: 1, aspectRatioHeight: 1, imagePercentage: 1 },
      captureResolution: { width: 1280, height: 720 },
    });
    assert.deepEqual(custom.json(), { x: 280, y: 0, width: 720, height: 720 });
  });

  it('answers bad input with the spec codes -3 to -8, never a 500', async () => {
    const tiny = (
      await sharp({ create: { width: 20, height: 20, channels: 3, background: '#fff' } })
        .png()
        .toBuffer()
    ).toString('base64');
    assertCodedError(await autocapture('PASSPORT', [Buffer.from('not an image').toString('base64')]), 400, -7);
    assertCodedError(await autocapture('PASSPORT', [tiny]), 400, -8);
    assertCodedError(await autocapture('PASSPORT', ['%%%']), 400, -5);
    assertCodedError(await autocapture('PASSPORT', []), 400, -3);
    assertCodedError(await autocapture('BOARDING_PASS', [passport]), 400, -6);
    assertCodedError(await httpPost(app, `${URL}/autocaptureDocument`, { images: [] }), 400, -3);
    assertCodedError(
      await httpPost(app, `${URL}/autocaptureDocument`, { workflow: { documentType: 1 }, images: [] }),
      400,
      -4,
    );
    assertCodedError(await httpPost(app, `${URL}/autocaptureDocument`, '{"workflow":', 'application/json'), 400, -2);
    assertCodedError(
      await httpPost(app, `${URL}/getCaptureParameters`, { workflow: { documentType: 'CUSTOM' } }),
      400,
      -3,
    );
    assertCodedError(
      await httpPost(app, `${URL}/getCaptureParameters`, {
        workflow: { documentType: 'CUSTOM', aspectRatioWidth: 3, aspectRatioHeight: 2, imagePercentage: 1.5 },
      }),
      400,
      -6,
    );
    assertCodedError(
      await httpPost(app, `${URL}/getCaptureRegion`, {
        workflow: { documentType: 'PASSPORT' },
        captureResolution: { width: 0, height: 720 },
      }),
      400,
      -6,
    );
  });

  it('counts its calls in the usage report', async () => {
    await app.close();
    const { year, month } = currentPeriod();
    const rows = await usageCountersRepository(store.db).list({ serverName: 'document-autocapture', year, month });
    const count = (endpoint: string) => rows.find((r) => r.endpoint === endpoint)?.counter ?? 0;
    assert.ok(count('/autocaptureDocument') >= 3);
    assert.ok(count('/getCaptureRegion') >= 2);
    app = await testApp({}, { store, documentEngine: engine });
  });
});

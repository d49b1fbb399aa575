import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { loadEnvelopeKeyRing, type EnvelopeKeyRing } from '../crypto/envelope-key-ring.js';
import { exportedTemplateSealer } from '../crypto/exported-template-sealing.js';
import { templateSealer } from '../crypto/template-sealing.js';
import { FaceEngine } from '../engines/face/face-engine.js';
import { DocumentEngine } from '../engines/document/document-engine.js';
import { VoiceEngine } from '../engines/voice/voice-engine.js';
import { checkVoiceModels } from '../engines/voice/voice-models.js';
import type { EnvelopePurpose } from '../lib/envelope-purpose.js';
import { ALL_SERVICES } from '../services/index.js';
import { openStore, type Store } from '../store/database.js';
import { serverKeysRepository } from '../store/server-keys.js';
import { usageCountersRepository } from '../store/usage-counters.js';
import type { VeriportConfig } from './config.js';
import { enginesOf, warmEngines } from './engine-warm-up.js';
import { registerHealth } from './health.js';
import { registerMetrics } from './metrics.js';
import { serverAuthentication, warnIfUnauthenticated } from './access/authentication.js';
import type { CheckIssuedCredentials } from './access/credentials.js';
import { decorateCustomerScope } from './access/customer-scope.js';
import { errorHandler, notFoundHandler } from './errors/error-handlers.js';
import { errorStyleForPath } from './errors/error-style-for-path.js';
import {
  clientErrorHandler,
  expectationFailed,
  OpenRequests,
  refuseConnect,
  refuseWhileClosing,
  requireHost,
} from './errors/protocol-errors.js';
import { limitConnectionsPerAddress } from './connection-limit.js';
import { httpServerOptions } from './http-server-options.js';
import { serializeErrorForLog } from './errors/error-log-serializer.js';
import { serializeRequestForLog } from './request-log-serializer.js';
import { useBoundedJsonParser } from './json-body-parser.js';
import { mountService } from './mount-service.js';
import { registerOpenApi } from './openapi.js';
import { openThrottleStore, type ThrottleStore } from './throttle-store.js';
import type { ServiceDefinition, ServiceDependencies } from './service-definition.js';
import { UsageRecorder } from './usage/usage-recorder.js';
import { validatorCompiler } from './validation.js';
import { registerWebApps, WEB_APPS_DIRECTORY } from './web-apps.js';

export interface AppOptions {
  readonly config: VeriportConfig;
  /** The services to mount; all of them by default. */
  readonly services?: readonly ServiceDefinition[];
  /** An open store to use instead of opening one from the configuration; the app does not close it. */
  readonly store?: Store;
  /** Envelope key pairs to use instead of loading them (tests share a ring to skip RSA generation). */
  readonly envelopeKeys?: EnvelopeKeyRing;
  /** A running face engine to share (tests: one pool for many apps); the app does not close it. */
  readonly faceEngine?: FaceEngine;
  /** A running document engine to share (tests: one pool for many apps); the app does not close it. */
  readonly documentEngine?: DocumentEngine;
  /** A running voice engine to share (tests: one pool for many apps); the app does not close it. */
  readonly voiceEngine?: VoiceEngine;
  /**
   * Start the engines the mounted services use and load their models in every worker before the app is ready
   * (engine-warm-up.ts): the first request of each kind is not slowed by the loading, and a missing or broken model
   * file fails the build, naming the file. Default false (tests, embedders: engines start at their first request);
   * `veriport serve` passes `config.warmEngines` (VERIPORT_WARM_ENGINES, default true).
   */
  readonly warmEngines?: boolean;
  /** Called after a shutdown was requested over HTTP; by default the app closes itself. */
  readonly onShutdownRequested?: (app: FastifyInstance) => void;
  /** Pino logger options, or false for none. Default: JSON logs at the configured level. */
  readonly logger?: boolean | Exclude<FastifyServerOptions['logger'], boolean | undefined>;
}

/**
 * Builds the Veriport server: the store (migrated), the envelope keys, usage counting, metrics,
 * health, the OpenAPI document and the chosen services under their prefixes. Closing the app lets
 * in-flight requests finish, writes the pending usage counts and closes the store it opened.
 *
 * @example
 * const app = await buildApp({ config: loadConfig(process.env) });
 * await app.listen({ port: 8080 });
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const services = options.services ?? ALL_SERVICES;
  const store = options.store ?? (await openConfiguredStore(config));
  const ownsStore = options.store === undefined;
  let closing = false;
  const codedErrors = errorHandler('coded');
  // Errors raised before routing know no service: the path's prefix chooses their style.
  const styleFor = errorStyleForPath(services);
  const openRequests = new OpenRequests();

  const app: FastifyInstance = Fastify({
    logger: loggerOptions(options.logger, config),
    bodyLimit: config.bodyLimitBytes,
    ...httpServerOptions(config),
    clientErrorHandler: clientErrorHandler(styleFor, openRequests, () => app.log),
    forceCloseConnections: 'idle',
    // Answered by refuseWhileClosing below, in the service's error style.
    return503OnClosing: false,
    pluginTimeout: 120_000,
    // Errors raised before routing (a malformed URL) would otherwise get Fastify's own body shape.
    frameworkErrors: (error, request, reply) => void errorHandler(styleFor(request.url))(error, request, reply),
  });
  openRequests.track(app.server);
  app.server.on('checkExpectation', expectationFailed(styleFor));
  limitConnectionsPerAddress(app.server, config.maxConnectionsPerAddress, (address) =>
    app.log.warn({ address }, 'connection refused: too many open connections from this address'),
  );
  app.server.on('connect', refuseConnect);
  app.addHook('onRequest', requireHost);
  app.addHook(
    'onRequest',
    refuseWhileClosing(() => closing, styleFor),
  );
  decorateCustomerScope(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setErrorHandler(codedErrors);
  app.setNotFoundHandler(notFoundHandler('coded'));
  useBoundedJsonParser(app);
  // Closed with the app, or below should the build fail (its client would keep reconnecting).
  let throttleStore: ThrottleStore | undefined;
  let closeOwnEngines: (() => Promise<void>) | undefined;

  try {
    const envelopeKeys = options.envelopeKeys ?? (await loadKeys(config, store, envelopePurposes(services)));
    // The template sealing keys derive from the onboarding pair, the single server key of earlier releases.
    const templateSecret = config.templateKey ?? envelopeKeys.key('onboarding').privateKey;
    const usageRepository = usageCountersRepository(store.db);
    const usage = new UsageRecorder({
      repository: usageRepository,
      flushIntervalMs: config.usageFlushIntervalMs,
      log: app.log,
    });
    // Started on first use (or by the warm-up below): a server that mounts no face service never loads the models.
    let ownFaceEngine: FaceEngine | undefined;
    const faceEngine = () =>
      options.faceEngine ??
      (ownFaceEngine ??= FaceEngine.start({
        workers: config.faceWorkers,
        pipeline: { detector: config.faceDetector },
        padModel: config.padModel,
      }));
    app.addHook('onClose', async () => {
      await ownFaceEngine?.close();
    });
    // The document services' pool, likewise started on the first document image and closed with the app.
    let ownDocumentEngine: DocumentEngine | undefined;
    const documentEngine = () => options.documentEngine ?? (ownDocumentEngine ??= DocumentEngine.start());
    app.addHook('onClose', async () => {
      await ownDocumentEngine?.close();
    });
    // The voice services' pool, likewise started on the first voice sample and closed with the app.
    let ownVoiceEngine: VoiceEngine | undefined;
    // Its model files are checked now: a malformed one stops the server here, not each voice request with a 500.
    if (options.voiceEngine === undefined && services.some((service) => service.name.startsWith('voice-')))
      checkVoiceModels();
    const voiceEngine = () =>
      options.voiceEngine ?? (ownVoiceEngine ??= VoiceEngine.start({ workers: config.voiceWorkers }));
    app.addHook('onClose', async () => {
      await ownVoiceEngine?.close();
    });
    // Should the build fail, the app is not returned and nothing else would close the pools it started (their
    // threads would keep the process alive).
    closeOwnEngines = async () => {
      await Promise.all([ownFaceEngine?.close(), ownDocumentEngine?.close(), ownVoiceEngine?.close()]);
    };
    // The models load in the workers while this thread mounts the services; awaited before the app is ready.
    const warming =
      options.warmEngines === true
        ? warmEngines(enginesOf(services), { face: faceEngine, document: documentEngine, voice: voiceEngine })
        : undefined;
    // A failure while the services mount is thrown at the await below, not an unhandled rejection meanwhile.
    void warming?.catch(() => undefined);
    const throttles = await openThrottleStore({
      url: config.throttle.redisUrl,
      keyPrefix: config.throttle.redisKeyPrefix,
      log: app.log,
    });
    throttleStore = throttles;
    app.addHook('onClose', async () => {
      await throttles.close();
    });
    const dependencies: ServiceDependencies = {
      config,
      store,
      faceEngine,
      documentEngine,
      voiceEngine,
      envelopeKeys,
      templateSealer: templateSealer(templateSecret),
      exportedTemplateSealer: exportedTemplateSealer(templateSecret),
      usage: { repository: usageRepository, flush: () => usage.flush() },
      requestShutdown: () => (options.onShutdownRequested ?? ((self) => void self.close()))(app),
      throttleStore: throttles,
    };

    await registerOpenApi(app, services);
    registerMetrics(app);
    registerHealth(app, store, () => closing);
    warnIfUnauthenticated(config, app.log);
    // One check (and one cache of the token signing keys) for every service of the process.
    const authenticate = serverAuthentication(config, store.db, issuedCredentials(services, dependencies), throttles);
    for (const service of services) {
      await mountService(
        app,
        service,
        dependencies,
        config.usageCounting ? usage.record.bind(usage) : undefined,
        authenticate,
      );
    }

    // The operator's portal and the phone's capture app (web/), for the onboarding QR hand-over.
    if (services.some((service) => service.name === 'onboarding'))
      registerWebApps(app, {
        directory: WEB_APPS_DIRECTORY,
        onboardingPublicKeyPem: envelopeKeys.key('onboarding').publicKeyPem,
      });

    app.addHook('preClose', (done) => {
      closing = true;
      done();
    });
    // A keep-alive connection busy when the stop began would otherwise stay open until its idle
    // timeout (VERIPORT_KEEP_ALIVE_TIMEOUT_MS) and hold the stop that long: answers sent while
    // closing end their connection.
    app.addHook('onSend', async (_request, reply) => {
      if (closing) reply.header('connection', 'close');
    });
    // onClose runs once in-flight requests are done: write what they counted, then close the store.
    app.addHook('onClose', async () => {
      await usage.stop();
      if (ownsStore) await store.close();
    });
    if (warming !== undefined) app.log.info({ seconds: await warming }, 'engines warm');
    await app.ready();
    usage.start();
    return app;
  } catch (error) {
    await closeOwnEngines?.();
    if (ownsStore) await store.close();
    await throttleStore?.close();
    throw error;
  }
}

// Secrets travel in headers (apikey, Authorization): redacted should a serializer ever include them.
const REDACTED = ['req.headers.authorization', 'req.headers.apikey', 'req.headers.cookie'];

// Errors are logged without the values libraries attach to them (SQL parameters: personal data); requests
// without the client's full address and without query values (the QR link's data is a credential).
const SERIALIZERS = { err: serializeErrorForLog, req: serializeRequestForLog };

function loggerOptions(logger: AppOptions['logger'], config: VeriportConfig): FastifyServerOptions['logger'] {
  if (logger === false) return false;
  const base = { level: config.logLevel, redact: REDACTED, serializers: SERIALIZERS };
  return logger === undefined || logger === true
    ? base
    : { ...base, ...logger, redact: REDACTED, serializers: { ...logger.serializers, ...SERIALIZERS } };
}

/** The credentials the mounted services issue for each other's routes, the first that recognises a request. */
function issuedCredentials(
  services: readonly ServiceDefinition[],
  dependencies: ServiceDependencies,
): CheckIssuedCredentials | undefined {
  const checks = services.flatMap((s) =>
    s.issuedCredentials === undefined ? [] : [s.issuedCredentials(dependencies)],
  );
  if (checks.length === 0) return undefined;
  return async (request) => {
    for (const check of checks) {
      const caller = await check(request);
      if (caller !== undefined) return caller;
    }
    return undefined;
  };
}

function openConfiguredStore(config: VeriportConfig): Promise<Store> {
  return config.databaseUrl === undefined
    ? openStore({ kind: 'pglite', dataDir: config.dataDir })
    : openStore({ kind: 'postgres', url: config.databaseUrl, schema: config.databaseSchema });
}

/**
 * The purposes whose key pairs are loaded: onboarding's always (the template sealing secret when
 * VERIPORT_TEMPLATE_KEY is unset) and the mounted services' (a stub with no encrypted call needs none).
 */
function envelopePurposes(services: readonly ServiceDefinition[]): EnvelopePurpose[] {
  return ['onboarding', ...services.flatMap((s) => (s.envelopePurpose === undefined ? [] : [s.envelopePurpose]))];
}

function loadKeys(
  config: VeriportConfig,
  store: Store,
  purposes: readonly EnvelopePurpose[],
): Promise<EnvelopeKeyRing> {
  const { privateKeyFile, publicKeyFile } = config;
  return loadEnvelopeKeyRing(purposes, {
    onboardingFiles:
      privateKeyFile !== undefined && publicKeyFile !== undefined ? { privateKeyFile, publicKeyFile } : undefined,
    keyDirectory: config.keyDirectory,
    repository: serverKeysRepository(store.db),
    passphrase: config.keyPassphrase,
  });
}

/**
 * The app under fuzz: every service on an in-memory store, two customers with clients and API keys, a
 * bearer token of the first, the shared test face engine, and shutdown requests ignored (the fuzzer
 * calls the shutdown routes too).
 */
import type { FastifyInstance } from 'fastify';
import { ALL_SERVICES } from '../src/services/index.js';
import { customersRepository } from '../src/store/customers.js';
import { openStore, type Store } from '../src/store/database.js';
import { accessToken, testApp, testEnvelopeKeys } from '../test/helpers/app.js';
import { testFaceEngine } from '../test/helpers/faces.js';
import { listOperations, type Operation } from './operations.js';
import { FRESH_STATE, materialize, type FuzzContext, type FuzzRequest, type Secrets } from './requests.js';
import { checkAnswer } from './oracle.js';
import { startOnboarding, type OnboardingState } from './onboarding-state.js';

export interface FuzzTarget {
  readonly app: FastifyInstance;
  readonly operations: readonly Operation[];
  readonly context: FuzzContext;
  readonly secrets: Secrets;
  /** Mints the fresh onboarding state a request's placeholders ask for. */
  readonly onboarding: OnboardingState;
  close(): Promise<void>;
}

/** The outcome of one request: its status (0 when inject itself threw) and why it failed, if it did. */
export interface Outcome {
  readonly statusCode: number;
  readonly body: string;
  readonly failure?: string;
}

/**
 * Starts the app and obtains the credentials the onboarding routes need.
 *
 * @example
 * const target = await startTarget(images.cheap);
 * const outcome = await send(target, operation, request);
 */
export async function startTarget(images: Readonly<Record<string, Buffer>>): Promise<FuzzTarget> {
  const store: Store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  const customers = customersRepository(store.db);
  await customers.create({ name: 'acme' });
  await customers.create({ name: 'globex' });
  const client = await customers.createClient('acme');
  const apiKey = await customers.createApiKey('acme');
  const otherApiKey = await customers.createApiKey('globex');
  // Registration-code throttles off: the target mints authentications with the valid code for each
  // request that uses it (throttling has its own tests); 429 stays an accepted answer for the oracle.
  const unthrottled = { VERIPORT_THROTTLE_CODE_PER_ADDRESS: '1000000', VERIPORT_THROTTLE_CODE_PER_DEVICE: '1000000' };
  const app = await testApp(unthrottled, {
    store,
    faceEngine: testFaceEngine(),
    onShutdownRequested: () => undefined,
  });
  const bearer = await accessToken(app, 'acme', client);
  const onboarding = await startOnboarding(app, { authorization: `Bearer ${bearer}`, apikey: apiKey.apiKey });
  const operations = listOperations(app, ALL_SERVICES);
  const innerBodies = new Map(
    operations.flatMap((operation) => {
      const plain = operations.find((o) => `${o.path}Encrypted` === operation.path);
      return plain?.body === undefined ? [] : [[operation.key, plain.body] as const];
    }),
  );
  return {
    app,
    operations,
    context: { customer: 'acme', images, innerBodies },
    secrets: {
      bearer,
      apiKey: apiKey.apiKey,
      otherApiKey: otherApiKey.apiKey,
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      envelopeKey: (purpose) => testEnvelopeKeys().key(purpose).publicKey,
      frameKey: onboarding.frameKey,
      state: onboarding.lasting,
    },
    onboarding,
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}

/**
 * Sends one request and checks the answer against the operation's error shape.
 *
 * @example
 * const { statusCode, failure } = await send(target, operation, request);
 */
export async function send(target: FuzzTarget, operation: Operation, request: FuzzRequest): Promise<Outcome> {
  try {
    const text = `${request.payload ?? ''}${request.seal ?? ''}`;
    const wanted = FRESH_STATE.filter((placeholder) => text.includes(placeholder));
    const fresh = wanted.length === 0 ? {} : await target.onboarding.mint(wanted);
    const secrets = { ...target.secrets, state: { ...target.secrets.state, ...fresh } };
    const response = await target.app.inject(materialize(request, secrets));
    const answer = { statusCode: response.statusCode, body: response.body };
    const failure = checkAnswer(operation.errorShape, answer);
    return failure === undefined ? answer : { ...answer, failure };
  } catch (error) {
    return { statusCode: 0, body: '', failure: `inject threw: ${String(error)}` };
  }
}

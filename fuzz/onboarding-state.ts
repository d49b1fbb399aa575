/**
 * Real onboarding state for the fuzz target: a user enrolled through the HTTP flow (live selfie frames,
 * a P-256 device key), and fresh state minted per request (a pending enrollment, a started or a
 * device-verified authentication), so that fuzzed addFace, verifyDevice and verifyFace bodies get past
 * the token checks to the frame decoding instead of answering 404 for an unknown token. State is fresh
 * per request because a successful or failed call spends it (single-use tokens, attempt limits).
 */
import type { FastifyInstance } from 'fastify';
import { generateDeviceKey } from '../src/client/device-key.js';
import { sealFaceFrames } from '../src/client/onboarding-client.js';
import { selfieFrame } from '../test/helpers/faces.js';
import { PLACEHOLDER } from './requests.js';

export interface OnboardingState {
  /** The onboarding frame key (`/getPublicKey`), PEM. */
  readonly frameKey: string;
  /** The values that last the whole run (registration code, device id), by placeholder. */
  readonly lasting: Readonly<Record<string, string>>;
  /** Fresh values for the given per-request placeholders, by placeholder. */
  mint(placeholders: readonly string[]): Promise<Record<string, string>>;
}

const DEVICE_ID = 'fuzz-device';

/**
 * Enrolls a user of the customer whose credentials `headers` carry, and returns what mints the rest.
 *
 * @example
 * const onboarding = await startOnboarding(app, { authorization: `Bearer ${bearer}`, apikey });
 * const { FUZZ_AUTH_TOKEN } = await onboarding.mint(['FUZZ_AUTH_TOKEN']);
 */
export async function startOnboarding(
  app: FastifyInstance,
  headers: Readonly<Record<string, string>>,
): Promise<OnboardingState> {
  const call = async (url: string, body?: unknown): Promise<Record<string, unknown>> => {
    const response = await app.inject({
      method: body === undefined ? 'GET' : 'POST',
      url,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    if (response.statusCode !== 200)
      throw new Error(`fuzz target: ${url} answered ${response.statusCode}: ${response.body}`);
    return body === undefined ? { text: response.body } : response.json<Record<string, unknown>>();
  };
  const text = (value: unknown, what: string): string => {
    if (typeof value !== 'string' || value === '') throw new Error(`fuzz target: no ${what}`);
    return value;
  };

  const frameKey = text((await call('/getPublicKey')).text, 'public key');
  const device = generateDeviceKey('p256');
  let users = 0;
  const enroll = async (username: string, deviceId: string, devicePublicKey?: string): Promise<string> => {
    const started = await call('/onboarding/enrollment/enroll', {
      username,
      email: `${username}@example.com`,
      phoneNumber: '+15550100',
    });
    const enrollmentToken = text(started.enrollmentToken, 'enrollmentToken');
    await call('/onboarding/enrollment/adddevice', {
      enrollmentToken,
      deviceId,
      ...(devicePublicKey === undefined ? {} : { devicePublicKey }),
    });
    return enrollmentToken;
  };

  // The enrolled user: three hand-held frames of one person pass liveness (as in onboarding-flow.test.ts).
  const enrollmentToken = await enroll('fuzz-enrolled', DEVICE_ID, device.publicKeyPem);
  const motions = [{}, { dx: 6, dy: -3, degrees: 1.5 }, { dx: -4, dy: 5, degrees: -1 }];
  const t0 = Date.now();
  const frames = await Promise.all(
    motions.map(async (m, i) => ({ image: await selfieFrame('anna', m), timestamp: t0 + i * 100 })),
  );
  const faceLivenessData = sealFaceFrames(frames, frameKey, { username: 'fuzz-enrolled' });
  const face = await call('/onboarding/enrollment/addFace', { enrollmentToken, faceLivenessData });
  const registrationCode = text(face.registrationCode, `registrationCode (addFace answered ${JSON.stringify(face)})`);

  const startAuthentication = async () =>
    text(
      (await call('/onboarding/authentication/authenticate', { registrationCode, deviceId: DEVICE_ID })).authToken,
      'authToken',
    );

  return {
    frameKey,
    lasting: { [PLACEHOLDER.registrationCode]: registrationCode, [PLACEHOLDER.deviceId]: DEVICE_ID },
    async mint(placeholders) {
      const values: Record<string, string> = {};
      if (placeholders.includes(PLACEHOLDER.enrollmentToken)) {
        users++;
        values[PLACEHOLDER.enrollmentToken] = await enroll(`fuzz-user-${users}`, `fuzz-device-${users}`);
      }
      if (placeholders.includes(PLACEHOLDER.startedAuthToken) || placeholders.includes(PLACEHOLDER.deviceSignature)) {
        const authToken = await startAuthentication();
        values[PLACEHOLDER.startedAuthToken] = authToken;
        values[PLACEHOLDER.deviceSignature] = device.sign(authToken);
      }
      if (placeholders.includes(PLACEHOLDER.authToken)) {
        const authToken = await startAuthentication();
        await call('/onboarding/authentication/verifyDevice', {
          authToken,
          signature: device.sign(authToken),
          deviceId: DEVICE_ID,
        });
        values[PLACEHOLDER.authToken] = authToken;
      }
      return values;
    },
  };
}

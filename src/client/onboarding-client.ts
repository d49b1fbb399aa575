import { encryptEnvelope } from './envelope.js';
import type { DeviceKey, DeviceSigner } from './device-key.js';
import type { LivenessChallenge } from './liveness-challenge.js';

/** A refused onboarding call: the HTTP status and the service's error body. */
export class OnboardingApiError extends Error {
  override name = 'OnboardingApiError';
  constructor(
    readonly status: number,
    readonly code: number | string | undefined,
    readonly description: string,
  ) {
    super(`${status}: ${description}`);
  }
}

export interface OnboardingClientOptions {
  /** Server root, e.g. `http://localhost:8080`. */
  readonly baseUrl: string;
  /** The customer's name (its realm on the wire is `{customer}-consumers`). */
  readonly customer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly apiKey: string;
  readonly fetch?: typeof fetch;
}

/**
 * A phone's client of one QR session (Doc 1 flows 7/8 -> 9 -> ...): the host, the session-scoped API key of
 * the QR data and the accessToken validateSession gave (see `takeOverSession`, qr-session.ts). Its
 * authentication calls use the QR-flow paths (`/authenticate`, `/verifyDevice`, `/verifyFace`).
 */
export interface SessionClientOptions {
  /** The QR data's host. */
  readonly baseUrl: string;
  /** The QR data's session-scoped API key. */
  readonly apiKey: string;
  /** validateSession's accessToken. */
  readonly accessToken: string;
  readonly fetch?: typeof fetch;
}

/** One frame of a face sample, as captured. */
export interface FaceFrame {
  readonly image: Uint8Array;
  /** Capture time, milliseconds; strictly increasing. */
  readonly timestamp: number;
  readonly tags?: readonly string[];
}

/** The `faceLivenessData` package of addFace and verifyFace, frames sealed for the server. */
export interface FaceLivenessData {
  video: {
    workflow_data: {
      workflow: string;
      rotation: number;
      frames: Array<{ data: string; tags: string[]; timestamp: number }>;
      timestamp: number;
      /** The nonce of a challenge (extension, issue 16) the sample follows. */
      challenge?: string;
    };
    meta_data: { client_device_brand: string; username: string; client_version: string };
    client_version: string;
  };
}

type Json = Record<string, unknown>;

/** The trigger answer (Doc 1, Session): the QR code's link and image, and the portal's session token. */
/** Doc 1's device-security result (the flow's status comes beside it). */
export interface DeviceSecurityAnswer {
  errorCode: string | null;
  errorMsg: string | null;
  responseDetail: {
    errorCode: string;
    errorDescription: string;
    transaction_id: string;
    userAttributes: Json[];
    acquiredAttributes: Json[];
    userAssertionList: Array<{ assertions: Record<string, 'pass' | 'fail'> } & Json>;
    mbun: string;
    forwardApiKey: string;
    policyObligation: boolean;
    policyDecision: 'approve' | 'review' | 'reject';
  };
}

export interface TriggerAnswer {
  status: string;
  sessionCallbackURL: string;
  /** PNG, base64. */
  qrcodeImage: string;
  sessionToken: string;
  /** null; or why a notification asked for was not sent. */
  errorSummary: string | null;
}

/**
 * Seals captured frames into a `faceLivenessData` package: each frame's image is encrypted in its own
 * `{key, iv, p}` envelope sealed for onboarding, under the server's onboarding public key (`getPublicKey`).
 *
 * @example
 * const data = sealFaceFrames([{ image: jpeg, timestamp: Date.now() }], publicKeyPem, { username: 'alice' });
 * // Following a challenge: its nonce and workflow go with the frames (tagged per challengeColourSchedule).
 * sealFaceFrames(frames, publicKeyPem, { username: 'alice', challenge });
 */
export function sealFaceFrames(
  frames: readonly FaceFrame[],
  publicKeyPem: string,
  meta: { username: string; workflow?: string; rotation?: number; device?: string; challenge?: LivenessChallenge },
): FaceLivenessData {
  const { challenge } = meta;
  return {
    video: {
      workflow_data: {
        workflow: meta.workflow ?? challenge?.workflow ?? 'hotel2',
        rotation: meta.rotation ?? 0,
        frames: frames.map((f) => ({
          data: JSON.stringify(encryptEnvelope(f.image, publicKeyPem, 'onboarding')),
          tags: [...(f.tags ?? [])],
          timestamp: f.timestamp,
        })),
        timestamp: Date.now(),
        ...(challenge === undefined ? {} : { challenge: challenge.challenge }),
      },
      meta_data: {
        client_device_brand: meta.device ?? 'veriport-sdk',
        username: meta.username,
        client_version: CLIENT_VERSION,
      },
      client_version: CLIENT_VERSION,
    },
  };
}

const CLIENT_VERSION = 'veriport-client/1';

/**
 * A typed client of the onboarding service's client-initiated flows (Doc 1): token, public key,
 * enrollment and authentication. The access token is fetched on first use and renewed before it expires.
 *
 * @example
 * const client = new OnboardingClient({ baseUrl, customer: 'demo', clientId, clientSecret, apiKey });
 * const alice = { username: 'alice', email: 'alice@example.com', phoneNumber: '+15550100' };
 * const { enrollmentToken } = await client.enroll(alice);
 * const device = generateDeviceKey();
 * await client.addDevice(enrollmentToken, 'phone-1', device);
 * const selfie = [{ image: selfieJpeg, timestamp: Date.now() }];
 * const { registrationCode } = await client.addFace(enrollmentToken, selfie, 'alice');
 * // Or against replays: a challenge first, frames captured after it (tags: challengeColourSchedule), then
 * // addFace(enrollmentToken, frames, 'alice', await client.enrollmentChallenge(enrollmentToken)).
 * const { authToken } = await client.authenticate(registrationCode, 'phone-1');
 * await client.verifyDevice(authToken, 'phone-1', device);
 * const result = await client.verifyFace(authToken, selfie, 'alice');
 */
export class OnboardingClient {
  private readonly fetch: typeof fetch;
  private accessToken: { value: string; renewAt: number } | undefined;
  private publicKeyPem: string | undefined;

  /** Where endpoints 10-12 are: the client-initiated paths, or the QR-flow paths for a session's client. */
  private readonly authenticationPaths: string;

  constructor(private readonly options: OnboardingClientOptions | SessionClientOptions) {
    this.fetch = options.fetch ?? fetch;
    this.authenticationPaths = 'accessToken' in options ? '' : '/onboarding/authentication';
  }

  /** A bearer token by the client-credentials grant (endpoint 1), reused until shortly before it expires. */
  async token(): Promise<string> {
    // A session's client has the one token validateSession gave.
    if ('accessToken' in this.options) return this.options.accessToken;
    if (this.accessToken !== undefined && Date.now() < this.accessToken.renewAt) return this.accessToken.value;
    const { customer, clientId, clientSecret } = this.options;
    const response = await this.fetch(
      `${this.options.baseUrl}/auth/realms/${encodeURIComponent(customer)}-consumers/protocol/openid-connect/token`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_id: clientId,
          client_secret: clientSecret,
          scope: 'openid',
          grant_type: 'client_credentials',
        }).toString(),
      },
    );
    const body = (await response.json()) as Json;
    if (!response.ok)
      throw new OnboardingApiError(
        response.status,
        typeof body.error === 'string' ? body.error : '',
        typeof body.error_description === 'string' ? body.error_description : 'token refused',
      );
    const expiresIn = Number(body.expires_in);
    this.accessToken = { value: String(body.access_token), renewAt: Date.now() + Math.max(0, expiresIn - 10) * 1000 };
    return this.accessToken.value;
  }

  /** The PEM the face frames are sealed with (endpoint 2). */
  async getPublicKey(): Promise<string> {
    if (this.publicKeyPem === undefined) {
      const response = await this.fetch(`${this.options.baseUrl}/getPublicKey`, { headers: await this.headers() });
      if (!response.ok) throw await apiError(response);
      this.publicKeyPem = await response.text();
    }
    return this.publicKeyPem;
  }

  /** Starts an enrollment (endpoint 3); for a re-enrollment pass the user's current `registrationCode`. */
  enroll(user: {
    username: string;
    email: string;
    phoneNumber: string;
    firstName?: string;
    lastName?: string;
    registrationCode?: string;
  }) {
    return this.post<{ enrollmentToken: string; userExistsAlready: boolean; requiredChecks: string[] }>(
      '/onboarding/enrollment/enroll',
      user,
    );
  }

  /**
   * Binds the device (endpoint 4): with a key pair its public key is registered; without, the response
   * carries `deviceSecret`.
   */
  addDevice(enrollmentToken: string, deviceId: string, device?: DeviceKey) {
    return this.post<{ enrollmentStatus: number; registrationCode: string; deviceSecret?: string }>(
      '/onboarding/enrollment/adddevice',
      {
        enrollmentToken,
        deviceId,
        ...(device === undefined ? {} : { devicePublicKey: device.publicKeyPem }),
      },
    );
  }

  /**
   * A single-use challenge for this enrollment's face sample (extension, issue 16; after addDevice): capture
   * the frames after it, showing its `screenColours` in order (`challengeColourSchedule`), then pass it to
   * {@link addFace} within its lifetime.
   */
  enrollmentChallenge(enrollmentToken: string) {
    return this.post<LivenessChallenge>('/onboarding/enrollment/challenge', { enrollmentToken });
  }

  /**
   * Sends the face sample (endpoint 5); a live sample completes the enrollment with `registrationCode`.
   * With a `challenge` (from {@link enrollmentChallenge}) its nonce goes with the sample, which must follow it.
   */
  async addFace(
    enrollmentToken: string,
    frames: readonly FaceFrame[],
    username: string,
    challenge?: LivenessChallenge,
  ) {
    const faceLivenessData = sealFaceFrames(frames, await this.getPublicKey(), {
      username,
      ...(challenge === undefined ? {} : { challenge }),
    });
    return this.post<{
      livenessResult: boolean;
      enrollmentStatus: number;
      registrationCode: string;
      livenessResults: Json;
      message?: string;
    }>('/onboarding/enrollment/addFace', {
      enrollmentToken,
      faceLivenessData,
    });
  }

  /** Starts an authentication (endpoint 10). */
  authenticate(registrationCode: string, deviceId: string) {
    return this.post<{ authToken: string; requiredChecks: string[] }>(`${this.authenticationPaths}/authenticate`, {
      registrationCode,
      deviceId,
    });
  }

  /** The device signs the `authToken` (endpoint 11). */
  verifyDevice(authToken: string, deviceId: string, device: DeviceSigner) {
    return this.post<{ message: string; authStatus: number }>(`${this.authenticationPaths}/verifyDevice`, {
      authToken,
      signature: device.sign(authToken),
      deviceId,
    });
  }

  /**
   * A single-use challenge for this authentication's face sample (after verifyDevice), like
   * {@link enrollmentChallenge}.
   */
  authenticationChallenge(authToken: string) {
    return this.post<LivenessChallenge>('/onboarding/authentication/challenge', { authToken });
  }

  /**
   * Liveness and match of a new face sample against the enrolled face (endpoint 12); with a `challenge` (from
   * {@link authenticationChallenge}) the sample must follow it.
   */
  async verifyFace(authToken: string, frames: readonly FaceFrame[], username: string, challenge?: LivenessChallenge) {
    const faceLivenessData = sealFaceFrames(frames, await this.getPublicKey(), {
      username,
      ...(challenge === undefined ? {} : { challenge }),
    });
    return this.post<{
      livenessResult: boolean;
      matchResult: boolean;
      matchScore: number;
      authStatus: number;
      faceLivenessResults: Json;
      faceMatchResults: Json;
    }>(`${this.authenticationPaths}/verifyFace`, { authToken, faceLivenessData });
  }

  /**
   * Posts a device's signals (extension: the collector of `web/shared/device-signals.ts` gathers them in a
   * browser; wire format version 1) and returns the single-use `apSessionId` for a device check.
   */
  deviceSignals(signals: object) {
    return this.post<{ apSessionId: string; expiresIn: number }>('/onboarding/deviceProfile/signals', signals);
  }

  /** The enrollment's device-security check (endpoint 6); `reEnrollmentToken` is the enrollmentToken of enroll. */
  checkEnrollmentDevice(reEnrollmentToken: string, apSessionId: string) {
    return this.post<DeviceSecurityAnswer & { enrollmentStatus: number }>(
      '/onboarding/enrollment/deviceProfile/checkDevice',
      { reEnrollmentToken, apSessionId },
    );
  }

  /**
   * The authentication's device-security check (endpoint 13, after verifyDevice, when `requiredChecks` names
   * deviceSecurity): authStatus 2 approved, 1 review (send verifyFace next), 0 rejected.
   */
  checkAuthenticationDevice(authToken: string, apSessionId: string) {
    return this.post<DeviceSecurityAnswer & { authStatus: number }>(
      '/onboarding/authentication/deviceProfile/checkDevice',
      { authToken, apSessionId },
    );
  }

  /**
   * The portal's side of a QR enrollment (endpoint 7): a session for a new user, its QR code and link;
   * with `notify`, the link is also e-mailed to `email` (`errorSummary` says when it could not be).
   */
  triggerEnroll(username: string, email: string, notify = false) {
    return this.post<TriggerAnswer>('/b2c/proxy/triggerEnroll', {
      username,
      email,
      notifyOptions: { notifyByEmail: notify },
    });
  }

  /** The portal's side of a QR authentication (endpoint 8); with `notify`, the link is also pushed. */
  triggerAuthenticate(username: string, notify = false) {
    return this.post<TriggerAnswer>('/b2c/proxy/triggerAuthenticate', {
      username,
      notifyOptions: { notifyByPush: notify },
    });
  }

  /** The state and match code of a session this customer triggered (extension: `POST /b2c/proxy/sessionStatus`). */
  sessionStatus(sessionToken: string) {
    return this.post<{
      status: string;
      methodType: string;
      userName: string;
      state: string;
      matchCode: string | null;
      expiresAt: string;
      errorSummary: null;
    }>('/b2c/proxy/sessionStatus', { sessionToken });
  }

  private async headers(): Promise<Record<string, string>> {
    return { authorization: `Bearer ${await this.token()}`, apikey: this.options.apiKey };
  }

  private async post<T>(path: string, body: unknown): Promise<T> {
    const response = await this.fetch(`${this.options.baseUrl}${path}`, {
      method: 'POST',
      headers: { ...(await this.headers()), 'content-type': 'application/json; charset=UTF-8' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw await apiError(response);
    return (await response.json()) as T;
  }
}

async function apiError(response: Response): Promise<OnboardingApiError> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { error?: { code?: number; description?: string } };
    return new OnboardingApiError(response.status, body.error?.code, body.error?.description ?? text);
  } catch {
    return new OnboardingApiError(response.status, undefined, text);
  }
}

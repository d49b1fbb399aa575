import type { LivenessChallenge } from '../../src/client/liveness-challenge.js';
import { postJson, readAnswer } from '../shared/api.js';

/** validateSession's answer (Doc 1 endpoint 9) with the extensions `matchCode` and `expiresIn`. */
export interface ValidatedSession {
  readonly accessToken: string;
  readonly methodType: string;
  readonly customerName: string;
  readonly customerLogo: string;
  readonly userName: string;
  readonly email: string;
  readonly matchCode: string;
  readonly expiresIn: number;
}

/** The `faceLivenessData` of addFace and verifyFace: frames sealed, each its own envelope's JSON. */
export interface FaceLivenessData {
  video: {
    workflow_data: {
      workflow: string;
      rotation: number;
      frames: Array<{ data: string; tags: string[]; timestamp: number }>;
      timestamp: number;
      challenge: string;
    };
    meta_data: { client_device_brand: string; username: string; client_version: string };
    client_version: string;
  };
}

const CHALLENGE = {
  challenge: 'string',
  workflow: 'string',
  screenColours: 'string-array',
  issuedAt: 'number',
  expiresAt: 'number',
  expiresIn: 'number',
} as const;

/**
 * Validates the QR session (endpoint 9) with the session key of the QR data, as the SDK's `takeOverSession`.
 *
 * @example
 * const session = await validateSession(host, apiKey, sessionToken);
 * @throws {ApiCallError} 409 for a used or superseded link, 410 expired, 401/403 otherwise refused
 */
export function validateSession(host: string, apiKey: string, sessionToken: string): Promise<ValidatedSession> {
  return postJson(
    `${host}/tokenVerify/validateSession`,
    { apikey: apiKey },
    { sessionToken },
    {
      accessToken: 'string',
      methodType: 'string',
      customerName: 'string',
      customerLogo: 'string',
      userName: 'string',
      email: 'string',
      matchCode: 'string',
      expiresIn: 'number',
    },
  );
}

/**
 * The calls of one validated QR session (its session key and accessToken on every call): enrollment (3-5) or
 * authentication on the QR-flow paths (10-12), the face step's challenge, and the live guidance.
 */
export class SessionApi {
  private readonly headers: Readonly<Record<string, string>>;

  constructor(
    private readonly host: string,
    apiKey: string,
    accessToken: string,
  ) {
    this.headers = { apikey: apiKey, authorization: `Bearer ${accessToken}` };
  }

  /** The session's credentials, for the device-signals post (web/shared/device-signals.ts). */
  get credentials(): Readonly<Record<string, string>> {
    return this.headers;
  }

  /** Starts the enrollment of the session's user (endpoint 3). */
  enroll(user: { username: string; email: string; phoneNumber: string }) {
    return postJson(`${this.host}/onboarding/enrollment/enroll`, this.headers, user, {
      enrollmentToken: 'string',
      requiredChecks: 'string-array',
    });
  }

  /** Binds this browser's device key (endpoint 4). */
  addDevice(enrollmentToken: string, deviceId: string, devicePublicKey: string) {
    return postJson(
      `${this.host}/onboarding/enrollment/adddevice`,
      this.headers,
      { enrollmentToken, deviceId, devicePublicKey },
      { enrollmentStatus: 'number' },
    );
  }

  /** The face step's single-use challenge of this enrollment (extension, issue 16). */
  enrollmentChallenge(enrollmentToken: string): Promise<LivenessChallenge> {
    return postJson(`${this.host}/onboarding/enrollment/challenge`, this.headers, { enrollmentToken }, CHALLENGE);
  }

  /** The face sample (endpoint 5): status 2 enrolled (with the registration code), 1 retry, 0 failed. */
  addFace(enrollmentToken: string, faceLivenessData: FaceLivenessData) {
    return postJson(
      `${this.host}/onboarding/enrollment/addFace`,
      this.headers,
      { enrollmentToken, faceLivenessData },
      { livenessResult: 'boolean', enrollmentStatus: 'number', registrationCode: 'string', message: 'optional-string' },
    );
  }

  /** Starts the authentication (endpoint 10, QR-flow path); `requiredChecks` names the final check. */
  authenticate(registrationCode: string, deviceId: string) {
    return postJson(
      `${this.host}/authenticate`,
      this.headers,
      { registrationCode, deviceId },
      { authToken: 'string', requiredChecks: 'string-array' },
    );
  }

  /** The device's signature over the authToken (endpoint 11). */
  verifyDevice(authToken: string, deviceId: string, signature: string) {
    return postJson(
      `${this.host}/verifyDevice`,
      this.headers,
      { authToken, signature, deviceId },
      { authStatus: 'number' },
    );
  }

  /**
   * The device-security check of the enrollment (endpoint 6) on the collected signals' `apSessionId`:
   * enrollmentStatus 0 rejected, else the enrollment goes on.
   */
  checkEnrollmentDevice(reEnrollmentToken: string, apSessionId: string) {
    return postJson(
      `${this.host}/onboarding/enrollment/deviceProfile/checkDevice`,
      this.headers,
      { reEnrollmentToken, apSessionId },
      { enrollmentStatus: 'number' },
    );
  }

  /**
   * The device-security check of the authentication (endpoint 13): authStatus 2 approved (authenticated),
   * 1 review (the face check follows), 0 rejected.
   */
  checkAuthenticationDevice(authToken: string, apSessionId: string) {
    return postJson(
      `${this.host}/onboarding/authentication/deviceProfile/checkDevice`,
      this.headers,
      { authToken, apSessionId },
      { authStatus: 'number' },
    );
  }

  /** The face step's single-use challenge of this authentication. */
  authenticationChallenge(authToken: string): Promise<LivenessChallenge> {
    return postJson(`${this.host}/onboarding/authentication/challenge`, this.headers, { authToken }, CHALLENGE);
  }

  /** Liveness and match of the face sample (endpoint 12): authStatus 2 passed, 1 retry, 0 failed. */
  verifyFace(authToken: string, faceLivenessData: FaceLivenessData) {
    return postJson(
      `${this.host}/verifyFace`,
      this.headers,
      { authToken, faceLivenessData },
      { livenessResult: 'boolean', matchResult: 'boolean', authStatus: 'number' },
    );
  }

  /**
   * Autocapture feedback on one preview frame (face liveness `/analyze`, which a session opens at its face
   * step: session-confinement.ts): the codes, empty when the frame is fit to capture.
   */
  async analyze(jpegBase64: string, timestamp: number): Promise<string[]> {
    const answer = await postJson(
      `${this.host}/face-liveness/analyze`,
      this.headers,
      { video: { workflow_data: { workflow: 'hotel2', frames: [{ data: jpegBase64, timestamp }] } } },
      { video: 'object' },
    );
    const { autocapture_result } = readAnswer(answer.video, { autocapture_result: 'object' });
    return readAnswer(autocapture_result, { feedback: 'string-array' }).feedback;
  }
}

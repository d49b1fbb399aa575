import { verifyDeviceSignature } from '../../crypto/device-key.js';
import { randomSecret, sha256Hex } from '../../crypto/secret-hash.js';
import { clientError } from '../../server/errors/api-error.js';
import type { Authentication, AuthenticationState } from '../../store/onboarding-authentications.js';
import type { OnboardingUser } from '../../store/onboarding-users.js';
import { matchEnrolledFace } from './enrolled-face.js';
import { issueFaceChallenge, redeemFaceChallenge, type FaceChallengeAnswer } from './face-challenge.js';
import { livenessSummary } from './face-check.js';
import { deviceSecretContext, type OnboardingContext } from './onboarding-context.js';
import type {
  AuthenticateRequest,
  AuthenticationChallengeRequest,
  VerifyDeviceRequest,
  VerifyFaceRequest,
} from './schemas.js';

/** Doc 1 `authStatus`: 1 after verifyDevice, 2 after the final check; 0 (ours) once the attempts are used up. */
const STATUS = { failed: 0, deviceVerified: 1, complete: 2 } as const;

export interface FaceVerification {
  livenessResult: boolean;
  matchResult: boolean;
  matchScore: number;
  authStatus: number;
  faceLivenessResults: ReturnType<typeof livenessSummary>;
  faceMatchResults: {
    statusMessages: string[];
    verifyResult: boolean;
    matchScore: number;
    biometricMatchedCount: number;
    biometricsOnServer: string;
    biometricMatchResultList: Array<{
      verifyResult: boolean;
      modality: string;
      fmrScore: number;
      biometricMatchedCount: number;
      biometricsOnServer: string;
      matchResultReference: null;
    }>;
    matchingMinutia: null;
  };
}

/** The steps of a client-initiated authentication (Doc 1 endpoints 10-12). */
export interface AuthenticationFlow {
  authenticate(customer: string, body: AuthenticateRequest): Promise<{ authToken: string; requiredChecks: string[] }>;
  verifyDevice(customer: string, body: VerifyDeviceRequest): Promise<{ message: string; authStatus: number }>;
  verifyFace(customer: string, body: VerifyFaceRequest): Promise<FaceVerification>;
  /** A challenge for this authentication's face sample (extension, issue 16), once the device is verified. */
  challenge(customer: string, body: AuthenticationChallengeRequest): Promise<FaceChallengeAnswer>;
}

/**
 * The authentication state machine (docs/decisions.md): authenticate checks the registration code and
 * the enrolled device and issues a short-lived single-use `authToken`; verifyDevice checks the device's
 * signature over it; verifyFace (only after verifyDevice) runs liveness and the 1:1 match against the
 * enrolled template. A failed check counts an attempt; at the policy's limit the authentication fails.
 *
 * @example
 * const flow = authenticationFlow(onboardingContext(deps));
 * const { authToken } = await flow.authenticate('acme', { registrationCode, deviceId });
 */
export function authenticationFlow(ctx: OnboardingContext): AuthenticationFlow {
  /** The authentication of a token with its user, refused unless it is in `state` and unexpired. */
  const openAuthentication = async (
    customer: string,
    token: string,
    state: AuthenticationState,
    step: string,
  ): Promise<{ auth: Authentication; user: OnboardingUser }> => {
    const auth = await ctx.authentications.find(customer, sha256Hex(token));
    if (auth === undefined) throw clientError(404, 'unknown authToken (or the user re-enrolled since)');
    const refuse = async (status: number, why: string) => {
      await ctx.events.record({
        customer,
        username: auth.username,
        event: step,
        outcome: 'refused',
        detail: why,
        deviceId: auth.deviceId,
      });
      return clientError(status, why);
    };
    if (auth.expiresAt <= ctx.now()) throw await refuse(410, 'authToken expired: start a new authentication');
    if (auth.state !== state) {
      const why: Record<AuthenticationState, string> = {
        started: 'the device must be verified first (verifyDevice)',
        'device-verified': 'the device is verified already; send the final check',
        complete: 'authToken already used: the authentication is complete',
        failed: 'the authentication failed (attempts used up): start a new one',
      };
      throw await refuse(409, why[auth.state]);
    }
    const user = await ctx.users.find(customer, auth.username);
    if (user === undefined) throw clientError(404, 'unknown authToken (or the user re-enrolled since)');
    return { auth, user };
  };

  return {
    async authenticate(customer, body) {
      const user = await ctx.users.findByRegistrationCode(customer, sha256Hex(body.registrationCode));
      if (user === undefined) throw clientError(403, 'registrationCode not recognised');
      if (user.device.deviceId !== body.deviceId) {
        await ctx.events.record({
          customer,
          username: user.username,
          event: 'authenticate',
          outcome: 'refused',
          detail: 'not the enrolled device',
          deviceId: body.deviceId,
        });
        throw clientError(403, 'deviceId is not the enrolled device');
      }
      const policy = await ctx.policies.get(customer);
      const authToken = randomSecret();
      await ctx.authentications.start({
        tokenHash: sha256Hex(authToken),
        customer,
        username: user.username,
        deviceId: user.device.deviceId,
        finalCheck: policy.finalCheck,
        expiresAt: new Date(ctx.now().getTime() + ctx.authTtlMs),
      });
      await ctx.events.record({
        customer,
        username: user.username,
        event: 'authenticate',
        outcome: 'success',
        deviceId: body.deviceId,
      });
      return { authToken, requiredChecks: ['verifyDevice', policy.finalCheck] };
    },

    async verifyDevice(customer, body) {
      const { auth, user } = await openAuthentication(customer, body.authToken, 'started', 'verifyDevice');
      const { device } = user;
      const key =
        device.keyKind === 'hmac'
          ? {
              kind: 'hmac' as const,
              secret: ctx.sealer.open(device.key, deviceSecretContext(customer, user.username, device.deviceId)),
            }
          : { kind: device.keyKind, pem: Buffer.from(device.key).toString('utf8') };
      const why =
        body.deviceId !== auth.deviceId
          ? 'deviceId is not the enrolled device'
          : !verifyDeviceSignature(key, body.authToken, body.signature)
            ? 'signature rejected'
            : undefined;
      if (why !== undefined) {
        const policy = await ctx.policies.get(customer);
        const counted = await ctx.authentications.recordFailure(
          customer,
          auth.tokenHash,
          'started',
          policy.maxAttempts,
        );
        await ctx.events.record({
          customer,
          username: user.username,
          event: 'verifyDevice',
          outcome: 'failure',
          detail: why,
          deviceId: body.deviceId,
        });
        throw clientError(
          403,
          counted?.state === 'failed' ? `${why}; no attempts left: the authentication failed` : why,
        );
      }
      if (!(await ctx.authentications.advance(customer, auth.tokenHash, 'started', 'device-verified')))
        throw clientError(409, 'the authentication changed meanwhile');
      await ctx.events.record({
        customer,
        username: user.username,
        event: 'verifyDevice',
        outcome: 'success',
        deviceId: body.deviceId,
      });
      return { message: 'device verified', authStatus: STATUS.deviceVerified };
    },

    async verifyFace(customer, body) {
      const { auth, user } = await openAuthentication(customer, body.authToken, 'device-verified', 'verifyFace');
      if (auth.finalCheck !== 'verifyFace')
        throw clientError(409, `this authentication's final check is ${auth.finalCheck}, not verifyFace`);
      const policy = await ctx.policies.get(customer);
      const challenge = await redeemFaceChallenge(
        ctx,
        customer,
        { purpose: 'onboarding-authentication', subject: auth.tokenHash },
        body.faceLivenessData.video.workflow_data.challenge,
        { username: user.username, step: 'verifyFace', deviceId: auth.deviceId },
      );
      const check = await ctx.checkFace(body.faceLivenessData, policy.livenessWorkflow, challenge);
      // No match is run for a sample that is not live: a score would let an attacker rank photos.
      const match =
        check.live && check.template !== undefined ? matchEnrolledFace(ctx, user, check.template) : undefined;
      const matched = match !== undefined && match.scoreFmr >= policy.matchFmrScore;
      const messages = !check.live
        ? [`liveness: ${check.liveness.decision}; match not run`]
        : match === undefined
          ? ['no usable face in the sample']
          : [matched ? 'face matched' : 'face did not match'];

      let authStatus: number = STATUS.complete;
      if (check.live && matched) {
        if (!(await ctx.authentications.advance(customer, auth.tokenHash, 'device-verified', 'complete')))
          throw clientError(409, 'the authentication changed meanwhile');
      } else {
        const counted = await ctx.authentications.recordFailure(
          customer,
          auth.tokenHash,
          'device-verified',
          policy.maxAttempts,
        );
        authStatus = counted?.state === 'failed' ? STATUS.failed : STATUS.deviceVerified;
      }
      await ctx.events.record({
        customer,
        username: user.username,
        event: 'verifyFace',
        outcome: authStatus === STATUS.complete ? 'success' : 'failure',
        detail: messages.join('; '),
        deviceId: auth.deviceId,
      });
      const matchScore = match?.scorePercent ?? 0;
      const fmrScore = match?.scoreFmr ?? 0;
      return {
        livenessResult: check.live,
        matchResult: matched,
        matchScore,
        authStatus,
        faceLivenessResults: livenessSummary(check.liveness),
        faceMatchResults: {
          statusMessages: messages,
          verifyResult: matched,
          matchScore,
          biometricMatchedCount: matched ? 1 : 0,
          biometricsOnServer: 'FACE',
          biometricMatchResultList: [
            {
              verifyResult: matched,
              modality: 'FACE',
              fmrScore,
              biometricMatchedCount: matched ? 1 : 0,
              biometricsOnServer: 'FACE',
              matchResultReference: null,
            },
          ],
          matchingMinutia: null,
        },
      };
    },

    async challenge(customer, body) {
      const { auth } = await openAuthentication(customer, body.authToken, 'device-verified', 'challenge');
      if (auth.finalCheck !== 'verifyFace')
        throw clientError(409, `this authentication's final check is ${auth.finalCheck}, not verifyFace`);
      const policy = await ctx.policies.get(customer);
      const binding = { purpose: 'onboarding-authentication', subject: auth.tokenHash } as const;
      return issueFaceChallenge(ctx, customer, binding, policy.livenessWorkflow);
    },
  };
}

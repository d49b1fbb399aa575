import { randomBytes } from 'node:crypto';
import { DeviceKeyError, parseDevicePublicKey } from '../../crypto/device-key.js';
import { randomSecret, sha256Hex } from '../../crypto/secret-hash.js';
import { clientError, invalidValue } from '../../server/errors/api-error.js';
import type { Enrollment } from '../../store/onboarding-enrollments.js';
import type { DeviceBinding } from '../../store/onboarding-users.js';
import { matchEnrolledFace, sealFaceTemplate } from './enrolled-face.js';
import { issueFaceChallenge, redeemFaceChallenge, type FaceChallengeAnswer } from './face-challenge.js';
import { livenessSummary } from './face-check.js';
import { deviceSecretContext, type OnboardingContext } from './onboarding-context.js';
import type { AddDeviceRequest, AddFaceRequest, EnrollRequest, EnrollmentChallengeRequest } from './schemas.js';

/** Doc 1 `enrollmentStatus`. */
const STATUS = { failed: 0, pending: 1, complete: 2 } as const;

/** The steps of a client-initiated enrollment (Doc 1 endpoints 3-5), for one customer at a time. */
export interface EnrollmentFlow {
  enroll(
    customer: string,
    body: EnrollRequest,
  ): Promise<{ enrollmentToken: string; userExistsAlready: boolean; requiredChecks: string[] }>;
  addDevice(
    customer: string,
    body: AddDeviceRequest,
  ): Promise<{ enrollmentStatus: number; registrationCode: string; deviceSecret?: string }>;
  addFace(
    customer: string,
    body: AddFaceRequest,
  ): Promise<{
    livenessResult: boolean;
    enrollmentStatus: number;
    registrationCode: string;
    livenessResults: ReturnType<typeof livenessSummary>;
    message?: string;
  }>;
  /** A challenge for this enrollment's face sample (extension, issue 16), once the device is added. */
  challenge(customer: string, body: EnrollmentChallengeRequest): Promise<FaceChallengeAnswer>;
}

/**
 * The enrollment state machine (docs/decisions.md, "Onboarding: enrollment and authentication"):
 * enroll issues a 15-minute single-purpose token; adddevice binds the device and its key; addFace
 * runs liveness and, when live, writes the user with the sealed F500 template and a fresh
 * registration code. A re-enrollment replaces face, device and code only after the new face passes,
 * and, unless enroll carried the user's current registration code, matches the enrolled face.
 *
 * @example
 * const flow = enrollmentFlow(onboardingContext(deps));
 * const { enrollmentToken } = await flow.enroll('acme', { username: 'alice', email: 'a@x', phoneNumber: '+1' });
 */
export function enrollmentFlow(ctx: OnboardingContext): EnrollmentFlow {
  /** The enrollment of a token, refused unless it is in `state` and unexpired. */
  const openEnrollment = async (
    customer: string,
    token: string,
    state: 'started' | 'pending',
    step: string,
  ): Promise<Enrollment> => {
    const enrollment = await ctx.enrollments.find(customer, sha256Hex(token));
    if (enrollment === undefined) throw clientError(404, 'unknown enrollmentToken');
    const refuse = async (status: number, why: string) => {
      await ctx.events.record({
        customer,
        username: enrollment.user.username,
        event: step,
        outcome: 'refused',
        detail: why,
      });
      return clientError(status, why);
    };
    if (enrollment.expiresAt <= ctx.now()) throw await refuse(410, 'enrollmentToken expired: start a new enrollment');
    if (enrollment.state === state) return enrollment;
    const why: Record<string, string> = {
      started: 'the device must be added first (adddevice)',
      pending: 'the device is added already; send the face sample (addFace)',
      complete: 'the enrollment is complete already',
      failed: 'the enrollment failed (face attempts used up): start a new enrollment',
      superseded: 'a newer enrollment of this user replaced this one',
    };
    throw await refuse(409, why[enrollment.state] ?? `the enrollment is ${enrollment.state}`);
  };

  return {
    async enroll(customer, body) {
      const existing = await ctx.users.find(customer, body.username);
      let codePresented = false;
      if (body.registrationCode !== undefined) {
        const holder = await ctx.users.findByRegistrationCode(customer, sha256Hex(body.registrationCode));
        if (existing === undefined || holder?.username !== body.username) {
          await ctx.events.record({
            customer,
            username: body.username,
            event: 'enroll',
            outcome: 'refused',
            detail: "registrationCode is not the user's",
          });
          throw clientError(403, 'registrationCode does not belong to this user');
        }
        codePresented = true;
      }
      const enrollmentToken = randomSecret();
      const user = {
        username: body.username,
        email: body.email,
        phoneNumber: body.phoneNumber,
        firstName: body.firstName,
        lastName: body.lastName,
      };
      await ctx.enrollments.start({
        tokenHash: sha256Hex(enrollmentToken),
        customer,
        user,
        codePresented,
        expiresAt: new Date(ctx.now().getTime() + ctx.enrollmentTtlMs),
      });
      await ctx.events.record({
        customer,
        username: body.username,
        event: 'enroll',
        outcome: 'success',
        detail: existing ? 're-enrollment' : 'new user',
      });
      return { enrollmentToken, userExistsAlready: existing !== undefined, requiredChecks: ['addDevice', 'addFace'] };
    },

    async addDevice(customer, body) {
      const enrollment = await openEnrollment(customer, body.enrollmentToken, 'started', 'adddevice');
      const { username } = enrollment.user;
      let device: DeviceBinding;
      let deviceSecret: string | undefined;
      if (body.devicePublicKey !== undefined) {
        try {
          const key = parseDevicePublicKey(body.devicePublicKey);
          device = { deviceId: body.deviceId, keyKind: key.kind, key: Buffer.from(key.pem, 'utf8') };
        } catch (error) {
          if (error instanceof DeviceKeyError) throw invalidValue(error.message);
          throw error;
        }
      } else {
        // Fallback for clients without a key pair: a per-device HMAC key, returned once, kept sealed.
        const secret = randomBytes(32);
        deviceSecret = secret.toString('base64url');
        device = {
          deviceId: body.deviceId,
          keyKind: 'hmac',
          key: ctx.sealer.seal(secret, deviceSecretContext(customer, username, body.deviceId)),
        };
      }
      if (!(await ctx.enrollments.bindDevice(customer, enrollment.tokenHash, device)))
        throw clientError(409, 'the enrollment changed meanwhile: the device was added by another call');
      await ctx.events.record({
        customer,
        username,
        event: 'adddevice',
        outcome: 'success',
        detail: `key ${device.keyKind}`,
        deviceId: body.deviceId,
      });
      return {
        enrollmentStatus: STATUS.pending,
        registrationCode: '',
        ...(deviceSecret === undefined ? {} : { deviceSecret }),
      };
    },

    async addFace(customer, body) {
      const enrollment = await openEnrollment(customer, body.enrollmentToken, 'pending', 'addFace');
      const { username } = enrollment.user;
      const policy = await ctx.policies.get(customer);
      const challenge = await redeemFaceChallenge(
        ctx,
        customer,
        { purpose: 'onboarding-enrollment', subject: enrollment.tokenHash },
        body.faceLivenessData.video.workflow_data.challenge,
        { username, step: 'addFace', deviceId: enrollment.device?.deviceId },
      );
      const check = await ctx.checkFace(body.faceLivenessData, policy.livenessWorkflow, challenge);
      const livenessResults = livenessSummary(check.liveness);

      const { template } = check;
      let failure: string | undefined;
      if (!check.live) failure = `face sample not live (${check.liveness.decision})`;
      else if (template === undefined) failure = 'no usable face in the sample';
      else if (!enrollment.codePresented) {
        const existing = await ctx.users.find(customer, username);
        if (existing !== undefined && matchEnrolledFace(ctx, existing, template).scoreFmr < policy.matchFmrScore) {
          failure = 're-enrollment: the face does not match the enrolled user; start again with the registrationCode';
        }
      }

      if (failure !== undefined) {
        const counted = await ctx.enrollments.recordFailedFace(customer, enrollment.tokenHash, policy.maxAttempts);
        if (counted === undefined) throw clientError(409, 'the enrollment changed meanwhile');
        const status = counted.state === 'failed' ? STATUS.failed : STATUS.pending;
        await ctx.events.record({
          customer,
          username,
          event: 'addFace',
          outcome: 'failure',
          detail: `${failure}; attempt ${counted.faceAttempts} of ${policy.maxAttempts}`,
          deviceId: enrollment.device?.deviceId,
        });
        const left = policy.maxAttempts - counted.faceAttempts;
        const message = `${failure}; ${left > 0 ? `${left} attempt(s) left` : 'no attempts left: the enrollment failed'}`;
        return { livenessResult: check.live, enrollmentStatus: status, registrationCode: '', livenessResults, message };
      }

      const { device } = enrollment;
      // Both hold here: only bindDevice makes an enrollment pending, and a passed check had a template.
      if (device === undefined || template === undefined)
        throw new Error('addFace: a pending enrollment without a device, or a passed face check without a template');
      const registrationCode = randomSecret();
      const completed = await ctx.enrollments.complete(
        customer,
        enrollment.tokenHash,
        {
          device,
          sealedFaceTemplate: sealFaceTemplate(ctx, customer, username, template),
          registrationCodeHash: sha256Hex(registrationCode),
        },
        ctx.now(),
      );
      if (!completed) throw clientError(409, 'the enrollment changed meanwhile');
      await ctx.events.record({
        customer,
        username,
        event: 'addFace',
        outcome: 'success',
        detail: 'enrollment complete',
        deviceId: device.deviceId,
      });
      return { livenessResult: true, enrollmentStatus: STATUS.complete, registrationCode, livenessResults };
    },

    async challenge(customer, body) {
      const enrollment = await openEnrollment(customer, body.enrollmentToken, 'pending', 'challenge');
      const policy = await ctx.policies.get(customer);
      const binding = { purpose: 'onboarding-enrollment', subject: enrollment.tokenHash } as const;
      return issueFaceChallenge(ctx, customer, binding, policy.livenessWorkflow);
    },
  };
}

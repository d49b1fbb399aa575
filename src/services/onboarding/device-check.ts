import { sha256Hex } from '../../crypto/secret-hash.js';
import { clientError } from '../../server/errors/api-error.js';
import type { AuthenticationState } from '../../store/onboarding-authentications.js';
import { assessDevice, type DeviceAssessment, type DeviceSecurityResult } from './device-assessment.js';
import type { DeviceContext } from './device-context.js';
import type { AuthenticationDeviceCheckRequest, EnrollmentDeviceCheckRequest } from './device-schemas.js';

/** Doc 1 `authStatus` after a device check: 2 approved, 1 review (verifyFace next), 0 rejected. */
const AUTH_STATUS = { reject: 0, review: 1, approve: 2 } as const;

/**
 * Doc 1 endpoint 13, `deviceProfile/checkDevice` of an authentication whose final check is deviceSecurity
 * (the customer's policy): only after verifyDevice (the enrolled device signed the authToken). approve
 * completes the authentication (authStatus 2); review steps it up to verifyFace with the same authToken
 * (authStatus 1, `policyObligation` true); reject fails it (authStatus 0). An approved check records the
 * device as trusted for the user.
 *
 * @example
 * const answer = await checkAuthenticationDevice(devices, 'acme', { authToken, apSessionId });
 * answer.authStatus; // 2
 * @throws {ApiError} 404 unknown authToken or apSessionId, 409 out of order or final check verifyFace, 410 expired
 */
export async function checkAuthenticationDevice(
  ctx: DeviceContext,
  customer: string,
  body: AuthenticationDeviceCheckRequest,
): Promise<DeviceSecurityResult & { authStatus: number }> {
  const tokenHash = sha256Hex(body.authToken);
  const auth = await ctx.authentications.find(customer, tokenHash);
  if (auth === undefined) throw clientError(404, 'unknown authToken (or the user re-enrolled since)');
  const refuse = async (status: number, why: string) => {
    await ctx.events.record({
      customer,
      username: auth.username,
      event: 'checkDevice',
      outcome: 'refused',
      detail: why,
      deviceId: auth.deviceId,
    });
    return clientError(status, why);
  };
  if (auth.expiresAt <= ctx.now()) throw await refuse(410, 'authToken expired: start a new authentication');
  if (auth.state !== 'device-verified') {
    const why: Record<Exclude<AuthenticationState, 'device-verified'>, string> = {
      started: 'the device must be verified first (verifyDevice)',
      complete: 'authToken already used: the authentication is complete',
      failed: 'the authentication failed: start a new one',
    };
    throw await refuse(409, why[auth.state]);
  }
  if (auth.finalCheck !== 'deviceSecurity')
    throw await refuse(409, `this authentication's final check is ${auth.finalCheck}, not deviceSecurity`);

  const assessment = await assessDevice(ctx, customer, {
    username: auth.username,
    flow: 'authenticate',
    flowTokenHash: tokenHash,
    apSessionId: body.apSessionId,
    provesUser: true,
  });
  const moved =
    assessment.decision === 'approve'
      ? await ctx.authentications.advance(customer, tokenHash, 'device-verified', 'complete')
      : assessment.decision === 'reject'
        ? await ctx.authentications.advance(customer, tokenHash, 'device-verified', 'failed')
        : await ctx.authentications.stepUpToFace(customer, tokenHash);
  if (!moved) throw clientError(409, 'the authentication changed meanwhile');
  await settle(ctx, customer, auth.username, auth.deviceId, assessment);
  return { ...assessment.result, authStatus: AUTH_STATUS[assessment.decision] };
}

/**
 * Doc 1 endpoint 6, the enrollment's `deviceProfile/checkDevice`. Its `reEnrollmentToken` is the
 * enrollmentToken of `enroll` (a first enrollment or a re-enrollment; Doc 1 shows no other token of an
 * enrollment). Before the enrollment completes, reject fails it (enrollmentStatus 0); review and approve let it
 * go on (the answer says why). After it completed, the decision is only reported. The device is trusted for
 * the user once the enrollment completes and the check did not reject it.
 *
 * @example
 * const answer = await checkEnrollmentDevice(devices, 'acme', { reEnrollmentToken: enrollmentToken, apSessionId });
 * answer.responseDetail.policyDecision; // 'approve'
 * @throws {ApiError} 404 unknown token or apSessionId, 409 enrollment failed or superseded, 410 expired
 */
export async function checkEnrollmentDevice(
  ctx: DeviceContext,
  customer: string,
  body: EnrollmentDeviceCheckRequest,
): Promise<DeviceSecurityResult & { enrollmentStatus: number }> {
  const tokenHash = sha256Hex(body.reEnrollmentToken);
  const enrollment = await ctx.enrollments.find(customer, tokenHash);
  if (enrollment === undefined) throw clientError(404, 'unknown reEnrollmentToken (the enrollmentToken of enroll)');
  const { username } = enrollment.user;
  const refuse = async (status: number, why: string) => {
    await ctx.events.record({ customer, username, event: 'checkDevice', outcome: 'refused', detail: why });
    return clientError(status, why);
  };
  if (enrollment.expiresAt <= ctx.now()) throw await refuse(410, 'enrollmentToken expired: start a new enrollment');
  if (enrollment.state === 'failed' || enrollment.state === 'superseded')
    throw await refuse(409, `the enrollment is ${enrollment.state}: start a new enrollment`);

  const assessment = await assessDevice(ctx, customer, {
    username,
    flow: 'enroll',
    flowTokenHash: tokenHash,
    apSessionId: body.apSessionId,
    provesUser: false,
  });
  let enrollmentStatus = enrollment.state === 'complete' ? 2 : 1;
  if (assessment.decision === 'reject' && enrollment.state !== 'complete') {
    if (!(await ctx.enrollments.fail(customer, tokenHash, ['started', 'pending'])))
      throw clientError(409, 'the enrollment changed meanwhile');
    enrollmentStatus = 0;
  }
  await settle(ctx, customer, username, enrollment.device?.deviceId, assessment);
  return { ...assessment.result, enrollmentStatus };
}

/** Records the observation and the audit entry (assertion names and actions only, never the address). */
async function settle(
  ctx: DeviceContext,
  customer: string,
  username: string,
  deviceId: string | undefined,
  assessment: DeviceAssessment,
): Promise<void> {
  if (assessment.observation !== undefined) await ctx.observations.record(assessment.observation);
  await ctx.events.record({
    customer,
    username,
    event: 'checkDevice',
    outcome: assessment.decision === 'approve' ? 'success' : 'failure',
    detail: [assessment.decision, ...assessment.reasons].join('; '),
    deviceId,
  });
}

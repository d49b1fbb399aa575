import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses as errors } from '../../server/schemas/coded-error.js';
import { customerOf } from './authenticated-scope.js';
import { checkAuthenticationDevice, checkEnrollmentDevice } from './device-check.js';
import type { DeviceContext } from './device-context.js';
import {
  AuthenticationDeviceCheckRequest,
  AuthenticationDeviceCheckResponse,
  DeviceSignalsBody,
  DeviceSignalsResponse,
  EnrollmentDeviceCheckRequest,
  EnrollmentDeviceCheckResponse,
} from './device-schemas.js';
import { collectSignals } from './device-signals-collection.js';

/** The device-signal post is ours: Doc 1 has the vendor SDK produce the apSessionId. */
const COLLECTOR =
  'Veriport extension beyond Doc 1 (which leaves the apSessionId to a device-intelligence SDK): the capture ' +
  "app's collector (web/shared/device-signals.ts) posts what the browser reports; the answer's apSessionId " +
  'is single use, for VERIPORT_DEVICE_PROFILE_TTL_SECONDS (default 900), for one checkDevice of the same ' +
  'customer. The source address of this call is the device address the check evaluates (docs/onboarding.md).';

/**
 * The device-security profile: the collector post (extension) and Doc 1 endpoints 6 and 13. Mount inside a
 * {@link requireAccess} scope.
 *
 * @example
 * deviceRoutes(scope, deviceContext(deps));
 */
export function deviceRoutes(app: FastifyInstance, ctx: DeviceContext): void {
  const scope = app.withTypeProvider<TypeBoxTypeProvider>();
  scope.post(
    '/onboarding/deviceProfile/signals',
    {
      schema: {
        summary: "Extension (not in the spec): the device signals of the app's collector -> apSessionId",
        description: COLLECTOR,
        body: DeviceSignalsBody,
        response: { 200: DeviceSignalsResponse, ...errors },
      },
    },
    async (request) => collectSignals(ctx, customerOf(request).name, request.body, request.ip),
  );
  scope.post(
    '/onboarding/enrollment/deviceProfile/checkDevice',
    {
      schema: {
        summary: "Enrollment device-security check (Doc 1 endpoint 6) under the customer's device policy",
        body: EnrollmentDeviceCheckRequest,
        response: { 200: EnrollmentDeviceCheckResponse, ...errors },
      },
    },
    async (request) => checkEnrollmentDevice(ctx, customerOf(request).name, request.body),
  );
  scope.post(
    '/onboarding/authentication/deviceProfile/checkDevice',
    {
      schema: {
        summary: 'Verify device security (Doc 1 endpoint 13): the final check when the policy says deviceSecurity',
        body: AuthenticationDeviceCheckRequest,
        response: { 200: AuthenticationDeviceCheckResponse, ...errors },
      },
    },
    async (request) => checkAuthenticationDevice(ctx, customerOf(request).name, request.body),
  );
}

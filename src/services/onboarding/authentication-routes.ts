import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses as errors } from '../../server/schemas/coded-error.js';
import type { AuthenticationFlow } from './authentication.js';
import { customerOf } from './authenticated-scope.js';
import type { RegistrationCodeThrottle } from './registration-code-throttle.js';
import {
  AuthenticateRequest,
  AuthenticateResponse,
  VerifyDeviceRequest,
  VerifyDeviceResponse,
  VerifyFaceRequest,
  VerifyFaceResponse,
} from './schemas.js';

/**
 * Doc 1 endpoints 10-12 at the client-initiated paths (`/onboarding/authentication/...`) and at the QR-flow
 * paths (`/authenticate`, `/verifyDevice`, `/verifyFace`): one flow behind both, so either path takes a
 * customer's credentials or a QR session's (session-confinement.ts keeps the latter to its session). Mount
 * inside a {@link requireAccess} scope.
 *
 * @example
 * authenticationRoutes(scope, authenticationFlow(context), codeThrottle);
 */
export function authenticationRoutes(
  app: FastifyInstance,
  flow: AuthenticationFlow,
  codeThrottle: RegistrationCodeThrottle,
): void {
  const scope = app.withTypeProvider<TypeBoxTypeProvider>();
  for (const base of ['/onboarding/authentication', ''] as const) {
    const qr = base === '' ? ' (QR-flow path)' : '';
    scope.post(
      `${base}/authenticate`,
      {
        schema: {
          summary: `Starts an authentication of the enrolled user and device${qr}`,
          body: AuthenticateRequest,
          response: { 200: AuthenticateResponse, ...errors },
        },
        preHandler: codeThrottle,
      },
      async (request) => flow.authenticate(customerOf(request).name, request.body),
    );
    scope.post(
      `${base}/verifyDevice`,
      {
        schema: {
          summary: `The enrolled device signs the authToken${qr}`,
          body: VerifyDeviceRequest,
          response: { 200: VerifyDeviceResponse, ...errors },
        },
      },
      async (request) => flow.verifyDevice(customerOf(request).name, request.body),
    );
    scope.post(
      `${base}/verifyFace`,
      {
        schema: {
          summary: `Liveness and 1:1 match against the enrolled face${qr}`,
          body: VerifyFaceRequest,
          response: { 200: VerifyFaceResponse, ...errors },
        },
      },
      async (request) => flow.verifyFace(customerOf(request).name, request.body),
    );
  }
}

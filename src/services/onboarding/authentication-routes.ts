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
 * Doc 1 endpoints 10-12, client-initiated paths (the QR-flow paths reuse the same flow later). Mount
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
  scope.post(
    '/onboarding/authentication/authenticate',
    {
      schema: {
        summary: 'Starts an authentication of the enrolled user and device',
        body: AuthenticateRequest,
        response: { 200: AuthenticateResponse, ...errors },
      },
      preHandler: codeThrottle,
    },
    async (request) => flow.authenticate(customerOf(request).name, request.body),
  );
  scope.post(
    '/onboarding/authentication/verifyDevice',
    {
      schema: {
        summary: 'The enrolled device signs the authToken',
        body: VerifyDeviceRequest,
        response: { 200: VerifyDeviceResponse, ...errors },
      },
    },
    async (request) => flow.verifyDevice(customerOf(request).name, request.body),
  );
  scope.post(
    '/onboarding/authentication/verifyFace',
    {
      schema: {
        summary: 'Liveness and 1:1 match against the enrolled face',
        body: VerifyFaceRequest,
        response: { 200: VerifyFaceResponse, ...errors },
      },
    },
    async (request) => flow.verifyFace(customerOf(request).name, request.body),
  );
}

import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses as errors } from '../../server/schemas/coded-error.js';
import { customerOf } from './authenticated-scope.js';
import type { RegistrationCodeThrottle } from './registration-code-throttle.js';
import type { EnrollmentFlow } from './enrollment.js';
import {
  AddDeviceRequest,
  AddDeviceResponse,
  AddFaceRequest,
  AddFaceResponse,
  EnrollRequest,
  EnrollResponse,
} from './schemas.js';

/**
 * Doc 1 endpoints 2-5: the public key for the face data, then enroll, adddevice and addFace. Mount
 * inside a {@link requireAccess} scope.
 *
 * @example
 * enrollmentRoutes(scope, enrollmentFlow(context), envelopeKeys.key('onboarding').publicKeyPem, codeThrottle);
 */
export function enrollmentRoutes(
  app: FastifyInstance,
  flow: EnrollmentFlow,
  publicKeyPem: string,
  codeThrottle: RegistrationCodeThrottle,
): void {
  const scope = app.withTypeProvider<TypeBoxTypeProvider>();
  scope.get(
    '/getPublicKey',
    {
      schema: {
        summary: 'PEM public key that seals the face data (envelope, DESIGN.md §5)',
        response: { 200: Type.String({ description: 'SPKI PEM' }), ...errors },
      },
    },
    async (_request, reply) => reply.type('text/plain; charset=utf-8').send(publicKeyPem),
  );
  scope.post(
    '/onboarding/enrollment/enroll',
    {
      schema: {
        summary: 'Starts an enrollment (or a re-enrollment) of a user',
        body: EnrollRequest,
        response: { 200: EnrollResponse, ...errors },
      },
      // Registration-code guesses (a re-enrollment carries one too).
      preHandler: codeThrottle,
    },
    async (request) => flow.enroll(customerOf(request).name, request.body),
  );
  scope.post(
    '/onboarding/enrollment/adddevice',
    {
      schema: {
        summary: 'Binds the device (and its public key, or an HMAC secret) to the enrollment',
        body: AddDeviceRequest,
        response: { 200: AddDeviceResponse, ...errors },
      },
    },
    async (request) => flow.addDevice(customerOf(request).name, request.body),
  );
  scope.post(
    '/onboarding/enrollment/addFace',
    {
      schema: {
        summary: 'Face sample: liveness, then the enrollment completes with a registration code',
        body: AddFaceRequest,
        response: { 200: AddFaceResponse, ...errors },
      },
    },
    async (request) => flow.addFace(customerOf(request).name, request.body),
  );
}

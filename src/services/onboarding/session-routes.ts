import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sha256Hex } from '../../crypto/secret-hash.js';
import { clientError } from '../../server/errors/api-error.js';
import { errorResponses as errors } from '../../server/schemas/coded-error.js';
import type { ServiceDependencies } from '../../server/service-definition.js';
import type { VerifyAccess } from './access.js';
import { customerOf, requireAccess } from './authenticated-scope.js';
import { guessThrottle, type GuessThrottle } from './guess-throttle.js';
import type { SessionContext } from './session-context.js';
import {
  SessionStatusRequest,
  SessionStatusResponse,
  TriggerAuthenticateRequest,
  TriggerEnrollRequest,
  TriggerError,
  TriggerResponse,
  ValidateSessionRequest,
  ValidateSessionResponse,
} from './session-schemas.js';
import { sessionStatus } from './session-status.js';
import { triggerSession } from './session-trigger.js';
import { validateSession } from './session-validation.js';
import { triggerErrorHandler } from './trigger-error-handler.js';

/**
 * Doc 1 endpoints 7-9, the QR hand-over: `POST /b2c/proxy/triggerEnroll` and `/b2c/proxy/triggerAuthenticate`
 * (the portal, with the customer's bearer token and API key), the status extension
 * `POST /b2c/proxy/sessionStatus` (the same credentials), and `POST /tokenVerify/validateSession` (the phone,
 * with the QR's session key). Triggers are throttled per customer and per user, validations per address.
 *
 * @example
 * await sessionRoutes(app, deps, sessionContext(deps, app.log), verifyAccess);
 */
export async function sessionRoutes(
  app: FastifyInstance,
  deps: ServiceDependencies,
  ctx: SessionContext,
  verifyAccess: VerifyAccess,
): Promise<void> {
  const limits = deps.config.throttle;
  const triggerThrottle = await guessThrottle(app, deps.throttleStore, limits.windowSeconds, [
    { name: 'trigger-customer', max: limits.triggerPerCustomer, key: (request) => request.onboardingCustomer?.name },
    {
      name: 'trigger-user',
      max: limits.triggerPerUser,
      // Hashed: a counter key names no user in Redis.
      key: (request) => {
        const customer = request.onboardingCustomer?.name;
        const username: unknown = Reflect.get(Object(request.body), 'username');
        return customer === undefined || typeof username !== 'string'
          ? undefined
          : sha256Hex(`${customer}\n${username}`);
      },
    },
  ]);
  const validateThrottle = await guessThrottle(app, deps.throttleStore, limits.windowSeconds, [
    { name: 'validate-address', max: limits.validatePerAddress, key: (request) => request.ip },
  ]);

  await app.register((scope, _options, done) => {
    requireAccess(scope, verifyAccess);
    const typed = scope.withTypeProvider<TypeBoxTypeProvider>();
    typed.post(
      '/b2c/proxy/sessionStatus',
      {
        schema: {
          summary: 'Extension: state and match code of a QR session the customer triggered (the portal polls it)',
          body: SessionStatusRequest,
          response: { 200: SessionStatusResponse, ...errors },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return sessionStatus(ctx, customerOf(request), request.body.sessionToken);
      },
    );
    // Refusals in the trigger answer's shape (status FAILURE, errorSummary).
    scope.register((triggers, _triggerOptions, registered) => {
      triggers.setErrorHandler(triggerErrorHandler);
      const t = triggers.withTypeProvider<TypeBoxTypeProvider>();
      const triggerErrors = { '4xx': TriggerError, '5xx': TriggerError };
      t.post(
        '/b2c/proxy/triggerEnroll',
        {
          schema: {
            summary: "Opens a QR enrollment session of a new user (customer's bearer token and apikey)",
            body: TriggerEnrollRequest,
            response: { 200: TriggerResponse, ...triggerErrors },
          },
          preHandler: throttled(triggerThrottle, 'trigger'),
        },
        async (request, reply) => {
          reply.header('cache-control', 'no-store');
          const { username, email, notifyOptions } = request.body;
          return triggerSession(ctx, customerOf(request), {
            method: 'enroll',
            username,
            email,
            notify: notifyOptions?.notifyByEmail === true,
            requestOrigin: originOf(request),
          });
        },
      );
      t.post(
        '/b2c/proxy/triggerAuthenticate',
        {
          schema: {
            summary: "Opens a QR authentication session of an enrolled user (customer's bearer token and apikey)",
            body: TriggerAuthenticateRequest,
            response: { 200: TriggerResponse, ...triggerErrors },
          },
          preHandler: throttled(triggerThrottle, 'trigger'),
        },
        async (request, reply) => {
          reply.header('cache-control', 'no-store');
          const { username, notifyOptions } = request.body;
          return triggerSession(ctx, customerOf(request), {
            method: 'authenticate',
            username,
            notify: notifyOptions?.notifyByPush === true,
            requestOrigin: originOf(request),
          });
        },
      );
      registered();
    });
    done();
  });

  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/tokenVerify/validateSession',
    {
      schema: {
        summary: "The phone takes over a QR session: apikey header = the QR data's session key; single use",
        body: ValidateSessionRequest,
        response: { 200: ValidateSessionResponse, ...errors },
      },
      preHandler: throttled(validateThrottle, 'session validation'),
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { customer, answer } = await validateSession(ctx, request.headers.apikey, request.body.sessionToken, {
        address: request.ip,
        userAgent: request.headers['user-agent'],
      });
      // Counted for the session's customer in the usage report.
      request.customerScope = customer;
      return answer;
    },
  );
}

/** A preHandler answering 429 with Retry-After once the throttle's limit is reached. */
function throttled(throttle: GuessThrottle, what: string) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const retryAfter = await throttle(request);
    if (retryAfter === undefined) return;
    reply.header('retry-after', String(retryAfter));
    throw clientError(429, `too many ${what} requests; retry after ${retryAfter} s`);
  };
}

/** The origin the call reached: the QR's host when `VERIPORT_PUBLIC_URL` is unset. */
function originOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

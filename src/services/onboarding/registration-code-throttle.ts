import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ThrottleLimits } from '../../server/config.js';
import { clientError } from '../../server/errors/api-error.js';
import type { ThrottleStore } from '../../server/throttle-store.js';
import { guessThrottle } from './guess-throttle.js';

/** A route `preHandler` that answers a coded 429 with Retry-After once registration-code guesses exceed a limit. */
export type RegistrationCodeThrottle = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * Counts every request that carries a registration code (authenticate, re-enroll) per source address and
 * per device id, shared by all routes it is attached to. Requests without a code are not counted.
 *
 * @example
 * const codeThrottle = await registrationCodeThrottle(app, deps.throttleStore, deps.config.throttle);
 * scope.post('/onboarding/authentication/authenticate', { preHandler: codeThrottle }, handler);
 */
export async function registrationCodeThrottle(
  app: FastifyInstance,
  store: ThrottleStore,
  limits: ThrottleLimits,
): Promise<RegistrationCodeThrottle> {
  const withCode = (request: FastifyRequest) => bodyText(request.body, 'registrationCode') !== undefined;
  const throttle = await guessThrottle(app, store, limits.windowSeconds, [
    {
      name: 'code-address',
      max: limits.codePerAddress,
      key: (request) => (withCode(request) ? request.ip : undefined),
    },
    {
      name: 'code-device',
      max: limits.codePerDevice,
      key: (request) => (withCode(request) ? bodyText(request.body, 'deviceId') : undefined),
    },
  ]);
  return async (request, reply) => {
    const retryAfter = await throttle(request);
    if (retryAfter === undefined) return;
    reply.header('retry-after', String(retryAfter));
    throw clientError(429, `too many registration code attempts; retry after ${retryAfter} s`);
  };
}

/** A string field of a (validated) JSON body, or undefined. */
function bodyText(body: unknown, field: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value: unknown = Reflect.get(body, field);
  return typeof value === 'string' ? value : undefined;
}

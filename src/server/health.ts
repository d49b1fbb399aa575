import type { FastifyInstance } from 'fastify';
import type { Store } from '../store/database.js';

/**
 * `GET /health` (the process is up) and `GET /ready` (it can serve: the store answers and no
 * shutdown has begun). Load balancers take a replica out of rotation on a failing `/ready`.
 *
 * @example
 * registerHealth(app, store, () => closing);
 */
export function registerHealth(app: FastifyInstance, store: Store, isClosing: () => boolean): void {
  const options = { logLevel: 'warn' as const, schema: { tags: ['operations'] } };
  app.get('/health', { ...options, schema: { ...options.schema, summary: 'Liveness probe' } }, () => ({
    status: 'ok',
  }));
  app.get(
    '/ready',
    { ...options, schema: { ...options.schema, summary: 'Readiness probe' } },
    async (request, reply) => {
      if (isClosing()) return reply.code(503).send({ status: 'shutting down' });
      try {
        await store.ping();
        return { status: 'ready', store: store.kind };
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check: store unavailable');
        return reply.code(503).send({ status: 'store unavailable' });
      }
    },
  );
}

import type { FastifyInstance } from 'fastify';
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics at `GET /metrics`: the process's default metrics and a request-duration
 * histogram by route template, method and status. Each app has its own registry, so several apps in
 * one process (tests, benchmarks) do not collide.
 *
 * @example
 * const registry = registerMetrics(app);
 */
export function registerMetrics(app: FastifyInstance): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'veriport_' });
  const duration = new Histogram({
    name: 'veriport_http_request_duration_seconds',
    help: 'HTTP request duration by route template, method and status code',
    labelNames: ['route', 'method', 'status_code'] as const,
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    duration.observe(
      { route, method: request.method, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  app.get(
    '/metrics',
    { logLevel: 'warn', schema: { tags: ['operations'], summary: 'Prometheus metrics' } },
    async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()),
  );
  return registry;
}

import type { FastifyInstance } from 'fastify';
import { routeSecurity, type Authenticate } from './access/authentication.js';
import { customerScopeOf } from './access/customer-scope.js';
import { errorHandler, notFoundHandler } from './errors/error-handlers.js';
import { boundedJsonParser } from './json-body-parser.js';
import type { ServiceDefinition, ServiceDependencies } from './service-definition.js';

/** Counts one answered request of a service endpoint, made for a customer (its customer scope). */
export type RecordUsage = (serverName: string, endpoint: string, customer: string) => void;

/**
 * Mounts a service under its prefix in its own encapsulated scope: its error style for every error
 * and unknown route under the prefix, JSON accepted as `text/plain` where its spec's examples send
 * that (elsewhere `text/plain` is a 415), OpenAPI tags, and a usage count for every request that
 * reaches one of its routes (also the rejected ones: a 400 is still a call), under the customer scope the
 * request had when answered; and, unless the service checks its own (`authentication: 'onboarding'`), the
 * credential check (`authenticate`) on every request under the prefix.
 *
 * @example
 * await mountService(app, transactionReportService, dependencies, usage.record.bind(usage), authenticate);
 */
export async function mountService(
  app: FastifyInstance,
  service: ServiceDefinition,
  dependencies: ServiceDependencies,
  recordUsage: RecordUsage | undefined,
  authenticate: Authenticate,
): Promise<void> {
  await app.register(
    async (scope) => {
      scope.setErrorHandler(errorHandler(service.errorStyle));
      const checked = (service.authentication ?? 'customer') === 'customer';
      // Before the scope's other hooks and the body parser: nothing of an unauthenticated request is read.
      if (checked) scope.addHook('onRequest', authenticate);
      // Onboarding is rooted at '/', where the server's own not-found handler answers already.
      if (service.prefix !== '') scope.setNotFoundHandler(notFoundHandler(service.errorStyle));
      // Fastify reads text/plain as a string by default; a service whose spec sends only JSON refuses it
      // (415), rather than failing it as a body of the wrong type (-4).
      scope.removeContentTypeParser('text/plain');
      if (service.jsonAsTextPlain) {
        scope.addContentTypeParser('text/plain', { parseAs: 'string' }, boundedJsonParser(scope));
      }
      scope.addHook('onRoute', (route) => {
        const security = checked ? routeSecurity(route.config?.access) : undefined;
        route.schema = { ...route.schema, tags: [service.name], ...(security === undefined ? {} : { security }) };
      });
      if (recordUsage !== undefined) {
        scope.addHook('onResponse', (request, reply, done) => {
          const template = request.routeOptions.url;
          // A call refused for its credentials is nobody's to bill, and uncounted it cannot grow the counters.
          if (template !== undefined && reply.statusCode !== 401)
            recordUsage(service.name, endpointName(template, service.prefix), customerScopeOf(request));
          done();
        });
      }
      // Its own plugin scope, as Fastify plugins are; the routes function may be synchronous.
      await scope.register(async (routes) => {
        await service.plugin(routes, dependencies);
      });
    },
    { prefix: service.prefix },
  );
}

/**
 * The endpoint name in usage reports: the route template relative to the service, in the spec's
 * `{param}` form, e.g. `/transaction-report/serverReport/:server` -> `/serverReport/{server}`.
 */
export function endpointName(routeTemplate: string, prefix: string): string {
  const relative = routeTemplate.startsWith(prefix) ? routeTemplate.slice(prefix.length) : routeTemplate;
  return (relative === '' ? '/' : relative).replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

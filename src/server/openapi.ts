import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { SECURITY_SCHEMES } from './access/authentication.js';
import type { ServiceDefinition } from './service-definition.js';
import { VERIPORT_VERSION } from './version.js';

/**
 * Registers the OpenAPI 3 document built from the route schemas (`GET /openapi.json`) and a
 * browsable UI at `/docs`. Must be registered before the routes it describes.
 *
 * @example
 * await registerOpenApi(app, ALL_SERVICES);
 */
export async function registerOpenApi(app: FastifyInstance, services: readonly ServiceDefinition[]): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Veriport',
        version: VERIPORT_VERSION,
        description:
          'Open-source identity verification. Each service lives under its own base path; error bodies and codes are described in docs/errors.md.',
      },
      tags: [
        ...services.map((s) => ({ name: s.name, description: `${s.description}; base path ${s.prefix || '/'}` })),
        { name: 'operations', description: 'health, readiness and metrics' },
      ],
      // Which a route asks for is in its `security` (mount-service.ts); docs/decisions.md, Authentication.
      components: { securitySchemes: SECURITY_SCHEMES },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
}

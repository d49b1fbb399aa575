import type { FastifyInstance } from 'fastify';
import { versionText } from './version.js';

/**
 * Adds `GET /version` to a service: a text/plain string naming the library, service and release; the one
 * route of a service that needs no credentials.
 *
 * @example
 * addVersionRoute(scope, 'face-matching'); // GET /face-matching/version -> 'Veriport face-matching 0.1.0'
 */
export function addVersionRoute(scope: FastifyInstance, serviceName: string): void {
  const text = versionText(serviceName);
  scope.get(
    '/version',
    {
      // Open to anyone, with authentication on too (server/access/authentication.ts).
      config: { access: 'public' },
      schema: {
        summary: 'Library name and version',
        produces: ['text/plain'],
        response: { 200: { description: 'library name and version', type: 'string' } },
      },
    },
    async (_request, reply) => reply.type('text/plain; charset=utf-8').send(text),
  );
}

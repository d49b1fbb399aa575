import type { FastifyInstance } from 'fastify';
import { versionText } from './version.js';

/**
 * Adds `GET /version` to a service: a text/plain string naming the library, service and release.
 *
 * @example
 * addVersionRoute(scope, 'face-matching'); // GET /face-matching/version -> 'Veriport face-matching 0.1.0'
 */
export function addVersionRoute(scope: FastifyInstance, serviceName: string): void {
  const text = versionText(serviceName);
  scope.get(
    '/version',
    {
      schema: {
        summary: 'Library name and version',
        produces: ['text/plain'],
        response: { 200: { description: 'library name and version', type: 'string' } },
      },
    },
    async (_request, reply) => reply.type('text/plain; charset=utf-8').send(text),
  );
}

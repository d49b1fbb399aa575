import closeWithGrace from 'close-with-grace';
import { buildApp } from '../server/app.js';
import type { VeriportConfig } from '../server/config.js';
import type { ServiceDefinition } from '../server/service-definition.js';

/**
 * Starts the chosen services on one port and stops gracefully on SIGINT/SIGTERM or a shutdown
 * request: in-flight requests finish, usage counts are written, the store is closed.
 *
 * @example
 * await serve(loadConfig(process.env), ALL_SERVICES);
 */
export async function serve(config: VeriportConfig, services: readonly ServiceDefinition[]): Promise<void> {
  let requestClose: () => void = () => undefined;
  const app = await buildApp({ config, services, onShutdownRequested: () => requestClose() });
  const grace = closeWithGrace({ delay: config.shutdownTimeoutMs, logger: false }, async ({ signal, err, manual }) => {
    if (err !== undefined) app.log.error({ err }, 'stopping after an unexpected error');
    else app.log.info({ signal, manual }, 'stopping: waiting for in-flight requests');
    await app.close();
    app.log.info('stopped');
  });
  requestClose = () => grace.close();
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    {
      services: services.map((s) => `${s.name} ${s.prefix || '/'}`),
      store: config.databaseUrl === undefined ? `pglite ${config.dataDir}` : 'postgres',
      docs: '/docs',
    },
    'veriport serving',
  );
}

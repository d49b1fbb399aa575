import closeWithGrace from 'close-with-grace';
import { buildApp } from '../server/app.js';
import type { VeriportConfig } from '../server/config.js';
import type { ServiceDefinition } from '../server/service-definition.js';
import { demoCredentialsText, ensureDemoCustomer } from '../services/onboarding/demo-customer.js';
import { customersRepository } from '../store/customers.js';
import { openStore, type Store } from '../store/database.js';

/**
 * Starts the chosen services on one port and stops gracefully on SIGINT/SIGTERM or a shutdown
 * request: in-flight requests finish, usage counts are written, the store is closed. On the first
 * start of the embedded store, a `demo` onboarding customer is made and its secrets printed once.
 *
 * @example
 * await serve(loadConfig(process.env), ALL_SERVICES);
 */
export async function serve(config: VeriportConfig, services: readonly ServiceDefinition[]): Promise<void> {
  let requestClose: () => void = () => undefined;
  // The embedded store is opened here so the demo customer can be made before serving; with
  // DATABASE_URL (a shared, operated database) customers are made with `veriport admin` only.
  const embedded: Store | undefined =
    config.databaseUrl === undefined ? await openStore({ kind: 'pglite', dataDir: config.dataDir }) : undefined;
  let demo: Awaited<ReturnType<typeof ensureDemoCustomer>>;
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    demo = embedded === undefined ? undefined : await ensureDemoCustomer(customersRepository(embedded.db));
    app = await buildApp({
      config,
      services,
      store: embedded,
      warmEngines: config.warmEngines,
      onShutdownRequested: () => requestClose(),
    });
  } catch (error) {
    await embedded?.close();
    throw error;
  }
  const grace = closeWithGrace({ delay: config.shutdownTimeoutMs, logger: false }, async ({ signal, err, manual }) => {
    if (err !== undefined) app.log.error({ err }, 'stopping after an unexpected error');
    else app.log.info({ signal, manual }, 'stopping: waiting for in-flight requests');
    await app.close();
    await embedded?.close();
    app.log.info('stopped');
  });
  requestClose = () => grace.close();
  const address = await app.listen({ port: config.port, host: config.host });
  if (demo !== undefined) process.stdout.write(demoCredentialsText(demo, config.publicUrl ?? address));
  app.log.info(
    {
      services: services.map((s) => `${s.name} ${s.prefix || '/'}`),
      store: config.databaseUrl === undefined ? `pglite ${config.dataDir}` : 'postgres',
      docs: '/docs',
    },
    'veriport serving',
  );
}

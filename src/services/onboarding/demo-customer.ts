import type { CustomersRepository, IssuedApiKey, IssuedClient } from '../../store/customers.js';

/** The customer made on the first start of an embedded store, so the token call can be tried at once. */
export const DEMO_CUSTOMER = 'demo';

/**
 * Creates the `demo` customer with one client and one API key when the store has no customer yet;
 * returns the fresh credentials (the only time they exist in clear), or undefined when nothing was made.
 *
 * @example
 * const demo = await ensureDemoCustomer(customersRepository(store.db));
 * if (demo) process.stdout.write(demoCredentialsText(demo, 'http://127.0.0.1:8080'));
 */
export async function ensureDemoCustomer(
  customers: CustomersRepository,
): Promise<{ client: IssuedClient; apiKey: IssuedApiKey } | undefined> {
  if ((await customers.count()) > 0) return undefined;
  await customers.create({ name: DEMO_CUSTOMER, displayName: 'Demo customer' });
  return {
    client: await customers.createClient(DEMO_CUSTOMER, 'demo-client'),
    apiKey: await customers.createApiKey(DEMO_CUSTOMER),
  };
}

/**
 * The notice printed to stdout (never to the logs) with the demo credentials and a ready token call.
 *
 * @example
 * demoCredentialsText(demo, 'http://127.0.0.1:8080');
 */
export function demoCredentialsText(demo: { client: IssuedClient; apiKey: IssuedApiKey }, baseUrl: string): string {
  return [
    '',
    `Created onboarding customer '${DEMO_CUSTOMER}' (first start). These secrets are shown only now:`,
    `  client_id=${demo.client.clientId}`,
    `  client_secret=${demo.client.clientSecret}`,
    `  apikey=${demo.apiKey.apiKey}`,
    `Get a token:`,
    `  curl -s ${baseUrl}/auth/realms/${DEMO_CUSTOMER}-consumers/protocol/openid-connect/token \\`,
    `    -d grant_type=client_credentials -d scope=openid -d client_id=${demo.client.clientId} -d client_secret=${demo.client.clientSecret}`,
    '',
    '',
  ].join('\n');
}

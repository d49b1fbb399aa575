import type { VeriportConfig } from '../server/config.js';
import { KEY_CACHE_SECONDS, retiredKeyRetentionSeconds } from '../server/access/signing-key-cache.js';
import { adminKeysRepository } from '../store/admin-keys.js';
import { customersRepository, CustomerError, type CustomersRepository } from '../store/customers.js';
import { devicePoliciesRepository } from '../store/device-policies.js';
import { openStore } from '../store/database.js';
import { onboardingPoliciesRepository } from '../store/onboarding-policies.js';
import { signingKeysRepository, type SigningKeysRepository } from '../store/signing-keys.js';
import { ADMIN_KEYS_USAGE, adminKeysCommand } from './admin-keys.js';
import { policyCommand, POLICY_USAGE } from './admin-policy.js';
import { trustStoreCommand, TRUST_STORE_USAGE } from './admin-trust-store.js';

/** A malformed `veriport admin` command line; the CLI prints it and exits 2. */
export class AdminUsageError extends Error {
  override name = 'AdminUsageError';
}

export const ADMIN_USAGE = `  veriport admin customers create <name> [--display-name TEXT] | customers list
  veriport admin clients create|rotate|revoke <customer> [<client_id>]
  veriport admin apikeys create|revoke <customer> [<key id>]
      Manages onboarding customers. Secrets are printed once and stored only hashed.
  veriport admin rotate-signing-key
      Retires the token signing key for a new one; tokens it signed verify until they expire.
${POLICY_USAGE}
${ADMIN_KEYS_USAGE}
${TRUST_STORE_USAGE}`;

/**
 * Runs one `veriport admin` command against the configured store and returns what to print.
 *
 * @example
 * process.stdout.write(await admin(config, ['customers', 'create', 'acme'], {}));
 * @throws {AdminUsageError} for a malformed command, {CustomerError} for a refused change
 */
export async function admin(
  config: VeriportConfig,
  args: readonly string[],
  options: { displayName?: string | undefined },
): Promise<string> {
  // The trust store is a folder, not database rows: no store to open.
  if (args[0] === 'trust-store') return trustStoreCommand(config.trustStoreDir, args.slice(1));
  const store =
    config.databaseUrl === undefined
      ? await openStore({ kind: 'pglite', dataDir: config.dataDir })
      : await openStore({ kind: 'postgres', url: config.databaseUrl, schema: config.databaseSchema, poolSize: 1 });
  try {
    if (args[0] === 'rotate-signing-key') {
      if (args.length > 1) throw new AdminUsageError(`rotate-signing-key takes no arguments\n\n${ADMIN_USAGE}`);
      return await rotateSigningKey(signingKeysRepository(store.db), config.tokenTtlSeconds);
    }
    if (args[0] === 'admin-keys') return await adminKeysCommand(adminKeysRepository(store.db), args.slice(1));
    if (args[0] === 'policy')
      return await policyCommand(
        customersRepository(store.db),
        onboardingPoliciesRepository(store.db),
        args.slice(1),
        devicePoliciesRepository(store.db),
      );
    return await run(customersRepository(store.db), args, options);
  } finally {
    await store.close();
  }
}

async function rotateSigningKey(keys: SigningKeysRepository, ttlSeconds: number): Promise<string> {
  const key = await keys.rotate();
  const until = new Date(key.createdAt.getTime() + retiredKeyRetentionSeconds(ttlSeconds) * 1000).toISOString();
  // Running servers read the keys every KEY_CACHE_SECONDS; the retention covers that delay.
  const retired = key.retiredKids.map((kid) => `retired_kid=${kid}\n# stays in the JWKS until ${until}\n`).join('');
  return `kid=${key.kid}\n${retired}# running servers sign with the new key within ${KEY_CACHE_SECONDS} s\n`;
}

async function run(
  customers: CustomersRepository,
  args: readonly string[],
  options: { displayName?: string | undefined },
): Promise<string> {
  const [noun, verb, customer, id] = args;
  const need = (value: string | undefined, what: string): string => {
    if (value === undefined || value === '')
      throw new AdminUsageError(`${noun} ${verb} needs ${what}\n\n${ADMIN_USAGE}`);
    return value;
  };
  switch (`${noun} ${verb}`) {
    case 'customers create': {
      const created = await customers.create({ name: need(customer, '<name>'), displayName: options.displayName });
      return `customer ${created.name} created (realm ${created.name}-consumers)\n`;
    }
    case 'customers list':
      return (await customers.list()).map((c) => `${c.name}\t${c.displayName}\n`).join('');
    case 'clients create': {
      const client = await customers.createClient(need(customer, '<customer>'), id);
      return `client_id=${client.clientId}\nclient_secret=${client.clientSecret}\n# the secret is shown only now\n`;
    }
    case 'clients rotate': {
      const client = await customers.rotateClient(need(customer, '<customer>'), need(id, '<client_id>'));
      if (client === undefined)
        throw new CustomerError(`no active client '${id ?? ''}' of customer '${customer ?? ''}'`);
      return `client_id=${client.clientId}\nclient_secret=${client.clientSecret}\n# the secret is shown only now\n`;
    }
    case 'clients revoke':
      if (!(await customers.revokeClient(need(customer, '<customer>'), need(id, '<client_id>'))))
        throw new CustomerError(`no client '${id ?? ''}' of customer '${customer ?? ''}'`);
      return `client ${id ?? ''} revoked\n`;
    case 'clients list':
      return (await customers.listClients(need(customer, '<customer>')))
        .map((c) => `${c.clientId}\t${c.revoked ? 'revoked' : 'active'}\n`)
        .join('');
    case 'apikeys create': {
      const key = await customers.createApiKey(need(customer, '<customer>'));
      return `key_id=${key.keyId}\napikey=${key.apiKey}\n# the key is shown only now\n`;
    }
    case 'apikeys revoke':
      if (!(await customers.revokeApiKey(need(customer, '<customer>'), need(id, '<key id>'))))
        throw new CustomerError(`no API key '${id ?? ''}' of customer '${customer ?? ''}'`);
      return `API key ${id ?? ''} revoked\n`;
    case 'apikeys list':
      return (await customers.listApiKeys(need(customer, '<customer>')))
        .map((k) => `${k.keyId}\t${k.revoked ? 'revoked' : 'active'}\n`)
        .join('');
    default:
      throw new AdminUsageError(`unknown admin command '${args.join(' ')}'\n\n${ADMIN_USAGE}`);
  }
}

import type { AdminKeysRepository } from '../store/admin-keys.js';

export const ADMIN_KEYS_USAGE = `  veriport admin admin-keys create [<label>] | admin-keys list | admin-keys revoke <key id>
      The operator's admin API keys: sent as the apikey header, they open the admin-only calls
      (reset, shutdown, every customer's report) when authentication is on. Printed once, stored hashed.`;

/** A malformed `admin-keys` command line, or a key that does not exist; the CLI prints it and exits 2. */
export class AdminKeyError extends Error {
  override name = 'AdminKeyError';
}

/** Labels are for people reading `admin-keys list`: one line of text. */
const MAX_LABEL_LENGTH = 100;

/**
 * Runs `veriport admin admin-keys create|list|revoke` and returns what to print.
 *
 * @example
 * process.stdout.write(await adminKeysCommand(adminKeysRepository(store.db), ['create', 'ops on-call']));
 * @throws {AdminKeyError} for a malformed command or an unknown key id
 */
export async function adminKeysCommand(adminKeys: AdminKeysRepository, args: readonly string[]): Promise<string> {
  const [verb, argument, ...extra] = args;
  if (extra.length > 0) throw new AdminKeyError(`too many arguments\n\n${ADMIN_KEYS_USAGE}`);
  switch (verb) {
    case 'create': {
      const label = argument ?? '';
      // Control characters (a newline above all) would forge lines of the listing.
      if (label.length > MAX_LABEL_LENGTH || /\p{Cc}/u.test(label))
        throw new AdminKeyError(`the label must be one line of at most ${MAX_LABEL_LENGTH} characters`);
      const key = await adminKeys.create(label);
      return `key_id=${key.keyId}\nadmin_key=${key.apiKey}\n# the key is shown only now; send it as the apikey header of admin calls\n`;
    }
    case 'list':
      if (argument !== undefined) throw new AdminKeyError(`admin-keys list takes no arguments\n\n${ADMIN_KEYS_USAGE}`);
      return (await adminKeys.list())
        .map((k) => `${k.keyId}\t${k.revoked ? 'revoked' : 'active'}\t${k.createdAt.toISOString()}\t${k.label}\n`)
        .join('');
    case 'revoke':
      if (argument === undefined || argument === '')
        throw new AdminKeyError(`admin-keys revoke needs <key id>\n\n${ADMIN_KEYS_USAGE}`);
      if (!(await adminKeys.revoke(argument))) throw new AdminKeyError(`no admin key '${argument}'`);
      return `admin key ${argument} revoked\n`;
    default:
      throw new AdminKeyError(`unknown admin-keys command '${args.join(' ')}'\n\n${ADMIN_KEYS_USAGE}`);
  }
}

import { parseArgs } from 'node:util';
import { ALL_SERVICES } from '../services/index.js';
import { ApiError } from '../server/errors/api-error.js';
import { ConfigError, loadConfig } from '../server/config.js';
import { SERVICE_NAMES, type ServiceName } from '../server/service-definition.js';
import { DirectoryLockedError } from '../store/directory-lock.js';
import { VERIPORT_VERSION } from '../server/version.js';
import { admin, ADMIN_USAGE, AdminUsageError } from './admin.js';
import { AdminKeyError } from './admin-keys.js';
import { TrustStoreCommandError } from './admin-trust-store.js';
import { CLIENT_USAGE, ClientFlowError, ClientUsageError, clientCommand } from './client.js';
import { PolicyUsageError } from './admin-policy.js';
import { OnboardingApiError } from '../client/onboarding-client.js';
import { SessionDataError } from '../client/session-data.js';
import { CustomerError } from '../store/customers.js';
import { usageReport } from './report.js';
import { serve } from './serve.js';

/** Where a command's output goes and what environment it reads: the process's own, or a test's. */
export interface CliIo {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

const USAGE = `veriport ${VERIPORT_VERSION}

Usage:
  veriport serve [service] [--port N] [--host H] [--data-dir DIR] [--log-level L]
      Starts every service on one port (default 8080), or only the named one.
      Services: ${SERVICE_NAMES.join(', ')}
  veriport report [--server NAME] [--year YYYY] [--month M] [--url http://host:port]
      Prints the usage report as CSV (server_name,year,month,endpoint,counter); with --url, the
      apikey header is VERIPORT_API_KEY when set (an admin key reports every customer).
${ADMIN_USAGE}
${CLIENT_USAGE}
  veriport --version | --help

Configuration comes from the environment (flags win): PORT, HOST, VERIPORT_DATA_DIR, DATABASE_URL,
VERIPORT_DATABASE_SCHEMA, VERIPORT_BODY_LIMIT, LOG_LEVEL, VERIPORT_ADMIN_CONFIRM, ... (docs/configuration.md).
`;

/**
 * Runs one `veriport` command line: parses `argv` (the arguments after the program name), runs the command and
 * answers its exit code, 0 on success, 2 for a usage or expected error (its message on stderr), 1 for anything
 * else (with the stack), -1 when a server was started (the process ends when it stops). The `veriport` binary
 * (main.ts) runs it on the process's own arguments, environment and streams; tests run admin and report
 * commands in-process through it, the same code without a process start per command.
 *
 * @example
 * const code = await runVeriport(['admin', 'customers', 'list'], { env: process.env, stdout: print, stderr: print });
 */
export async function runVeriport(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return await command(argv, io);
  } catch (error) {
    return reportError(error, io);
  }
}

async function command(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      'log-level': { type: 'string' },
      server: { type: 'string' },
      year: { type: 'string' },
      month: { type: 'string' },
      url: { type: 'string' },
      'display-name': { type: 'string' },
      username: { type: 'string' },
      email: { type: 'string' },
      phone: { type: 'string' },
      'device-id': { type: 'string' },
      'device-key': { type: 'string' },
      'registration-code': { type: 'string' },
      'public-key': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  if (values.version === true) {
    io.stdout(`${VERIPORT_VERSION}\n`);
    return 0;
  }
  const [command, ...rest] = positionals;
  if (values.help === true || command === undefined || command === 'help') {
    io.stdout(USAGE);
    return command === undefined && values.help !== true ? 1 : 0;
  }
  const config = loadConfig(io.env, {
    port: values.port,
    host: values.host,
    dataDir: values['data-dir'],
    logLevel: values['log-level'],
  });
  switch (command) {
    case 'serve': {
      const [name] = rest;
      if (name !== undefined && !SERVICE_NAMES.includes(name as ServiceName)) {
        throw new UsageError(`unknown service '${name}'; services: ${SERVICE_NAMES.join(', ')}`);
      }
      await serve(config, name === undefined ? ALL_SERVICES : ALL_SERVICES.filter((s) => s.name === name));
      return -1;
    }
    case 'report':
      io.stdout(
        await usageReport(config, {
          server: values.server,
          year: optionalInteger(values.year, '--year'),
          month: optionalInteger(values.month, '--month'),
          url: values.url,
          apiKey: io.env.VERIPORT_API_KEY === '' ? undefined : io.env.VERIPORT_API_KEY,
        }),
      );
      return 0;
    case 'admin':
      io.stdout(await admin(config, rest, { displayName: values['display-name'] }));
      return 0;
    case 'client':
      io.stdout(
        await clientCommand(
          rest,
          {
            username: values.username,
            email: values.email,
            phone: values.phone,
            deviceId: values['device-id'],
            deviceKey: values['device-key'],
            registrationCode: values['registration-code'],
            publicKey: values['public-key'],
          },
          io.env,
        ),
      );
      return 0;
    default:
      throw new UsageError(`unknown command '${command}'\n\n${USAGE}`);
  }
}

class UsageError extends Error {}

function optionalInteger(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`${flag} must be a whole number (got '${value}')`);
  return Number(value);
}

function reportError(error: unknown, io: CliIo): number {
  const expected = [
    ConfigError,
    UsageError,
    ApiError,
    DirectoryLockedError,
    AdminUsageError,
    CustomerError,
    ClientUsageError,
    ClientFlowError,
    SessionDataError,
    OnboardingApiError,
    PolicyUsageError,
    AdminKeyError,
    TrustStoreCommandError,
  ].some((kind) => error instanceof kind);
  if (expected || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    io.stderr(`veriport: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  io.stderr(`veriport: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return 1;
}

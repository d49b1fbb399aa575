/**
 * Server configuration: read once at start from the environment and command-line flags, validated,
 * and frozen. Invalid values stop the start with a message naming the variable and what it accepts.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import {
  FACE_DETECTOR_KINDS,
  parseFaceDetectorKind,
  type FaceDetectorKind,
} from '../engines/face/face-detector-kind.js';
import {
  IAD_SIGNAL_NAMES,
  isIadSignalName,
  isSignalMode,
  SIGNAL_MODES,
  type IadSignalName,
  type SignalMode,
} from '../engines/liveness/iad-signal-names.js';
import { PAD_MODEL_KINDS, parsePadModelKind, type PadModelKind } from '../engines/liveness/pad-model-kind.js';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface VeriportConfig {
  /** TCP port; 0 asks the OS for a free one. */
  readonly port: number;
  readonly host: string;
  /** PGlite data directory, or `memory://` for a throw-away in-memory store. Unused with `databaseUrl`. */
  readonly dataDir: string;
  /** PostgreSQL connection string; when set, the store is that server instead of embedded PGlite. */
  readonly databaseUrl: string | undefined;
  /** PostgreSQL schema holding Veriport's tables (created when missing). */
  readonly databaseSchema: string | undefined;
  readonly bodyLimitBytes: number;
  readonly logLevel: LogLevel;
  /** How often buffered usage counts are written to the store (at most 1 s: a crash loses at most that). */
  readonly usageFlushIntervalMs: number;
  /** Turns request counting off; only the benchmark uses this to measure the counter's own cost. */
  readonly usageCounting: boolean;
  /** Integer that `confirm` must equal on the report service's reset and shutdown; unset disables both. */
  readonly adminConfirmCode: number | undefined;
  /**
   * PEM files of the onboarding envelope key pair (the `GET /getPublicKey` key); when unset it comes from
   * `keyDirectory`, or is generated on first start and kept in the store.
   */
  readonly privateKeyFile: string | undefined;
  readonly publicKeyFile: string | undefined;
  /** Directory of `<purpose>.pem` private keys, one per envelope purpose; unset: the store holds them. */
  readonly keyDirectory: string | undefined;
  /**
   * Folder of trusted CSCA certificates (DER/PEM, ICAO master lists) for chip passive authentication, filled by
   * `veriport admin trust-store import`; `VERIPORT_TRUST_STORE_DIR`, default `<data dir>/trust-store` (none with
   * a `memory://` store: every chip chain then fails as CHIP_CSCA_UNKNOWN).
   */
  readonly trustStoreDir: string | undefined;
  /** Passphrase that encrypts the generated private key at rest in the store. */
  readonly keyPassphrase: string | undefined;
  /** How long shutdown waits for in-flight requests before closing connections. */
  readonly shutdownTimeoutMs: number;
  /** Face-engine worker threads (each holds its own models, ~150 MB). */
  readonly faceWorkers: number;
  /** Voice-engine worker threads (each holds its own voice models, tens of MB). */
  readonly voiceWorkers: number;
  /**
   * `VERIPORT_WARM_ENGINES` (default true): `veriport serve` loads the models of the engines its services use before
   * it listens (AppOptions.warmEngines), so a broken model file stops the start; false starts them at first use.
   */
  readonly warmEngines: boolean;
  /** Face detector and mesh runtime, from `VERIPORT_FACE_DETECTOR` (`onnx`, the default, or `tfjs`). */
  readonly faceDetector: FaceDetectorKind;
  /** The presentation-attack model of liveness, from `VERIPORT_PAD_MODEL` (`onnx`, the default, or `handmade`). */
  readonly padModel: PadModelKind;
  /** Encounters a face-matching cache may hold, unless `faceCacheLimits` names the cache. */
  readonly faceCacheLimit: number;
  /** Per-cache limits, from `VERIPORT_FACE_CACHE_LIMITS=name=100,other=50000`. */
  readonly faceCacheLimits: ReadonlyMap<string, number>;
  /** Encounters a voice-matching cache may hold, unless `voiceCacheLimits` names the cache. */
  readonly voiceCacheLimit: number;
  /** Per-cache limits of voice matching, from `VERIPORT_VOICE_CACHE_LIMITS=name=100,other=50000`. */
  readonly voiceCacheLimits: ReadonlyMap<string, number>;
  /** Secret (32+ bytes, base64) the template sealing key is derived from; unset: from the server private key. */
  readonly templateKey: Buffer | undefined;
  /**
   * Mode per injection-attack signal, from `VERIPORT_IAD_MODES=spectral_analysis=DECISIONING,...`;
   * unnamed signals keep their default.
   */
  readonly iadModes: ReadonlyMap<IadSignalName, SignalMode>;
  /** A liveness package older than this (its `timestamp`) is TIMESTAMP_TOO_OLD. */
  readonly livenessMaxAgeMs: number;
  /** A package dated further ahead than this is TIMESTAMP_IN_FUTURE (clock skew allowance). */
  readonly livenessMaxSkewMs: number;
  /** Server-issued liveness challenges (issue 16, docs/liveness.md): lifetime, cap, whether one is required. */
  readonly livenessChallenge: LivenessChallengeSettings;
  /** Lifetime of onboarding access and ID tokens (`expires_in`). */
  readonly tokenTtlSeconds: number;
  /** Guess throttling of the token endpoint and of registration codes (docs/decisions.md). */
  readonly throttle: ThrottleLimits;
  /** Lifetime of an onboarding enrollmentToken (enroll to addFace). */
  readonly enrollmentTtlSeconds: number;
  /** Lifetime of an onboarding authToken (authenticate to the final check). */
  readonly authTtlSeconds: number;
  /** QR hand-over (Doc 1 endpoints 7-9): lifetime of a sessionToken, and of the access token it gives the phone. */
  readonly sessionTtlSeconds: number;
  /** Live-guidance frames (face liveness's /analyze) one QR session may have analysed (per replica). */
  readonly sessionGuidanceMax: number;
  /** The URL the QR code opens, with `data` as its query parameter; unset: `<host>/capture` (docs/onboarding.md). */
  readonly sessionCallbackUrl: string | undefined;
  /** Where triggerEnroll's e-mail and triggerAuthenticate's push notification go; unset: only logged. */
  readonly notifications: NotificationSettings;
  /** Public base URL (no trailing slash) used in token issuers; unset: taken from each request's host. */
  readonly publicUrl: string | undefined;
  /** The device-security profile (Doc 1 endpoints 6, 13): data files and the apSessionId lifetime. */
  readonly deviceSecurity: DeviceSecuritySettings;
  /** How long a client may take to send a request's headers (Node's headersTimeout); at most `requestTimeoutMs`. */
  readonly headersTimeoutMs: number;
  /** How long a client may take to send a whole request, body included (Node's requestTimeout); then 408. */
  readonly requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open after an answer. */
  readonly keepAliveTimeoutMs: number;
  /** How long a connection may pass no bytes in either direction (Fastify's connectionTimeout) before it is closed. */
  readonly socketTimeoutMs: number;
  /** Simultaneous connections one source address may hold; more are closed at once. */
  readonly maxConnectionsPerAddress: number;
  /**
   * `VERIPORT_AUTH`: whether the biometric services ask for credentials (docs/decisions.md, Authentication);
   * default `required` unless `host` is a loopback address.
   */
  readonly authentication: AuthenticationMode;
}

/** Where the device-security check takes its data from (docs/onboarding.md, "Device security"). */
export interface DeviceSecuritySettings {
  /** `VERIPORT_TOR_EXIT_LIST`: a Tor exit list file; unset: detect.tor is not asserted. */
  readonly torExitList: string | undefined;
  /** `VERIPORT_GEOIP_MMDB`: a country or city MMDB instead of the shipped country data. */
  readonly geoMmdb: string | undefined;
  /** `VERIPORT_GEOIP_ASN_MMDB`: an ASN MMDB instead of the shipped network-owner table. */
  readonly asnMmdb: string | undefined;
  /** How long an apSessionId may be used after its signals were posted. */
  readonly profileTtlSeconds: number;
}

/** `required`: a customer's token or API key (admin calls: the admin key); `off`: every caller is the operator. */
export type AuthenticationMode = 'required' | 'off';

/** Raised for any invalid configuration value; the CLI prints the message and exits with status 2. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Flags from the command line; they win over the environment. */
export interface ConfigFlags {
  port?: string | undefined;
  host?: string | undefined;
  dataDir?: string | undefined;
  logLevel?: string | undefined;
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const SIZE_UNITS: Readonly<Record<string, number>> = { '': 1, b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/**
 * Builds the configuration from environment variables and flags.
 *
 * @example
 * const config = loadConfig(process.env, { port: '9000' });
 * config.port; // 9000
 * @throws {ConfigError} naming the first invalid value
 */
export function loadConfig(env: NodeJS.ProcessEnv, flags: ConfigFlags = {}): VeriportConfig {
  const databaseUrl = optionalString(env.DATABASE_URL);
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError(`DATABASE_URL must be a postgres:// or postgresql:// URL`);
  }
  const databaseSchema = optionalString(env.VERIPORT_DATABASE_SCHEMA);
  if (databaseSchema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(databaseSchema)) {
    throw new ConfigError(`VERIPORT_DATABASE_SCHEMA must be a lower-case SQL identifier (got '${databaseSchema}')`);
  }
  const privateKeyFile = optionalString(env.VERIPORT_PRIVATE_KEY_FILE);
  const publicKeyFile = optionalString(env.VERIPORT_PUBLIC_KEY_FILE);
  if ((privateKeyFile === undefined) !== (publicKeyFile === undefined)) {
    throw new ConfigError('VERIPORT_PRIVATE_KEY_FILE and VERIPORT_PUBLIC_KEY_FILE must be set together');
  }
  const logLevel = (flags.logLevel ?? env.LOG_LEVEL ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel as LogLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got '${logLevel}')`);
  }
  const host = flags.host ?? optionalString(env.HOST) ?? '127.0.0.1';
  return Object.freeze({
    port: integer(flags.port ?? env.PORT, 'PORT (--port)', 8080, 0, 65535),
    host,
    dataDir: flags.dataDir ?? optionalString(env.VERIPORT_DATA_DIR) ?? './data',
    databaseUrl,
    databaseSchema,
    bodyLimitBytes: byteSize(env.VERIPORT_BODY_LIMIT, 'VERIPORT_BODY_LIMIT', 20 * 1024 ** 2),
    logLevel: logLevel as LogLevel,
    usageFlushIntervalMs: integer(env.VERIPORT_USAGE_FLUSH_MS, 'VERIPORT_USAGE_FLUSH_MS', 1000, 10, 1000),
    usageCounting: boolean(env.VERIPORT_USAGE_COUNTING, 'VERIPORT_USAGE_COUNTING', true),
    adminConfirmCode: confirmCode(env.VERIPORT_ADMIN_CONFIRM),
    privateKeyFile,
    publicKeyFile,
    keyDirectory: optionalString(env.VERIPORT_KEY_DIR),
    trustStoreDir: trustStoreDir(env, flags.dataDir ?? optionalString(env.VERIPORT_DATA_DIR) ?? './data'),
    keyPassphrase: optionalString(env.VERIPORT_KEY_PASSPHRASE),
    shutdownTimeoutMs: integer(env.VERIPORT_SHUTDOWN_TIMEOUT_MS, 'VERIPORT_SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    faceWorkers: integer(env.VERIPORT_FACE_WORKERS, 'VERIPORT_FACE_WORKERS', availableParallelism(), 1, 256),
    voiceWorkers: integer(env.VERIPORT_VOICE_WORKERS, 'VERIPORT_VOICE_WORKERS', availableParallelism(), 1, 256),
    warmEngines: boolean(env.VERIPORT_WARM_ENGINES, 'VERIPORT_WARM_ENGINES', true),
    faceDetector: faceDetectorKind(env.VERIPORT_FACE_DETECTOR),
    padModel: padModelKind(env.VERIPORT_PAD_MODEL),
    faceCacheLimit: integer(env.VERIPORT_FACE_CACHE_LIMIT, 'VERIPORT_FACE_CACHE_LIMIT', 10_000, 1, MAX_CACHE_LIMIT),
    faceCacheLimits: cacheLimits(env.VERIPORT_FACE_CACHE_LIMITS, 'VERIPORT_FACE_CACHE_LIMITS'),
    voiceCacheLimit: integer(env.VERIPORT_VOICE_CACHE_LIMIT, 'VERIPORT_VOICE_CACHE_LIMIT', 10_000, 1, MAX_CACHE_LIMIT),
    voiceCacheLimits: cacheLimits(env.VERIPORT_VOICE_CACHE_LIMITS, 'VERIPORT_VOICE_CACHE_LIMITS'),
    templateKey: secretBytes(env.VERIPORT_TEMPLATE_KEY, 'VERIPORT_TEMPLATE_KEY'),
    iadModes: signalModes(env.VERIPORT_IAD_MODES, 'VERIPORT_IAD_MODES'),
    livenessMaxAgeMs: integer(
      env.VERIPORT_LIVENESS_MAX_AGE_MS,
      'VERIPORT_LIVENESS_MAX_AGE_MS',
      300_000,
      1000,
      86_400_000,
    ),
    livenessMaxSkewMs: integer(
      env.VERIPORT_LIVENESS_MAX_SKEW_MS,
      'VERIPORT_LIVENESS_MAX_SKEW_MS',
      30_000,
      0,
      3_600_000,
    ),
    tokenTtlSeconds: integer(env.VERIPORT_TOKEN_TTL_SECONDS, 'VERIPORT_TOKEN_TTL_SECONDS', 300, 10, 86_400),
    enrollmentTtlSeconds: integer(
      env.VERIPORT_ENROLLMENT_TTL_SECONDS,
      'VERIPORT_ENROLLMENT_TTL_SECONDS',
      900,
      1,
      86_400,
    ),
    authTtlSeconds: integer(env.VERIPORT_AUTH_TTL_SECONDS, 'VERIPORT_AUTH_TTL_SECONDS', 120, 1, 3_600),
    sessionTtlSeconds: integer(env.VERIPORT_SESSION_TTL_SECONDS, 'VERIPORT_SESSION_TTL_SECONDS', 300, 1, 3_600),
    sessionGuidanceMax: integer(env.VERIPORT_SESSION_GUIDANCE_MAX, 'VERIPORT_SESSION_GUIDANCE_MAX', 120, 1, 10_000),
    sessionCallbackUrl: absoluteUrl(env.VERIPORT_SESSION_CALLBACK_URL, 'VERIPORT_SESSION_CALLBACK_URL'),
    notifications: notificationSettings(env),
    publicUrl: publicUrl(env.VERIPORT_PUBLIC_URL),
    deviceSecurity: deviceSecuritySettings(env),
    ...connectionLimits(env),
    throttle: throttleLimits(env),
    authentication: authenticationMode(env.VERIPORT_AUTH, host),
    livenessChallenge: livenessChallengeSettings(env),
  });
}

/**
 * Whether a bind address only answers this machine: 127.0.0.0/8, ::1 or localhost.
 *
 * @example
 * isLoopbackHost('127.0.0.1'); // true
 * isLoopbackHost('0.0.0.0'); // false: every interface
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return name === 'localhost' || name === '::1' || /^(::ffff:)?127(\.\d{1,3}){3}$/.test(name);
}

function authenticationMode(raw: string | undefined, host: string): AuthenticationMode {
  const value = optionalString(raw)?.toLowerCase();
  if (value === undefined) return isLoopbackHost(host) ? 'off' : 'required';
  if (value !== 'required' && value !== 'off') {
    throw new ConfigError(`VERIPORT_AUTH must be required or off (got '${value}')`);
  }
  return value;
}

/** Server-issued liveness challenges (`POST /face-liveness/challenge`, onboarding's challenge calls). */
export interface LivenessChallengeSettings {
  /** How long a challenge may be used after it is issued. */
  readonly ttlMs: number;
  /** Open (unused, unexpired) challenges a customer may hold; the next request answers 429. */
  readonly maxOpen: number;
  /** `VERIPORT_LIVENESS_CHALLENGE=required`: liveness requests without a challenge are refused (400 -3). */
  readonly required: boolean;
}

function deviceSecuritySettings(env: NodeJS.ProcessEnv): DeviceSecuritySettings {
  const file = (name: string) => {
    const path = optionalString(env[name]);
    if (path !== undefined && !isReadableFile(path)) throw new ConfigError(`${name}: '${path}' is not a readable file`);
    return path;
  };
  return {
    torExitList: file('VERIPORT_TOR_EXIT_LIST'),
    geoMmdb: file('VERIPORT_GEOIP_MMDB'),
    asnMmdb: file('VERIPORT_GEOIP_ASN_MMDB'),
    profileTtlSeconds: integer(
      env.VERIPORT_DEVICE_PROFILE_TTL_SECONDS,
      'VERIPORT_DEVICE_PROFILE_TTL_SECONDS',
      900,
      10,
      86_400,
    ),
  };
}

function isReadableFile(path: string): boolean {
  try {
    accessSync(path, constants.R_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function livenessChallengeSettings(env: NodeJS.ProcessEnv): LivenessChallengeSettings {
  const mode = optionalString(env.VERIPORT_LIVENESS_CHALLENGE)?.toLowerCase() ?? 'optional';
  if (mode !== 'optional' && mode !== 'required')
    throw new ConfigError(`VERIPORT_LIVENESS_CHALLENGE must be optional or required (got '${mode}')`);
  const ttlSeconds = integer(
    env.VERIPORT_LIVENESS_CHALLENGE_TTL_SECONDS,
    'VERIPORT_LIVENESS_CHALLENGE_TTL_SECONDS',
    60,
    1,
    3_600,
  );
  return {
    ttlMs: ttlSeconds * 1000,
    maxOpen: integer(
      env.VERIPORT_LIVENESS_CHALLENGE_MAX_OPEN,
      'VERIPORT_LIVENESS_CHALLENGE_MAX_OPEN',
      1000,
      1,
      1_000_000,
    ),
    required: mode === 'required',
  };
}

/** Requests allowed per key within one window (the next answers 429 with Retry-After), and where they are counted. */
export interface ThrottleLimits {
  readonly windowSeconds: number;
  readonly tokenPerAddress: number;
  readonly tokenPerClient: number;
  readonly codePerAddress: number;
  readonly codePerDevice: number;
  /** triggerEnroll / triggerAuthenticate calls per customer and window. */
  readonly triggerPerCustomer: number;
  /** Trigger calls naming one username (of one customer) per window: no flood of e-mails or pushes to a user. */
  readonly triggerPerUser: number;
  /** validateSession calls per source address and window. */
  readonly validatePerAddress: number;
  /** Window of the failed-credentials throttle (wrong client secrets, unknown API keys), in seconds. */
  readonly failureWindowSeconds: number;
  /** Failed credential checks naming one client id or API key id per failure window, from anywhere. */
  readonly failuresPerClient: number;
  /** Failed credential checks from one network (IPv4 /24, IPv6 /48) per failure window, whatever they name. */
  readonly failuresPerNetwork: number;
  /** `redis://` or `rediss://` URL of the store every replica counts in; unset: each process counts alone. */
  readonly redisUrl: string | undefined;
  /** Start of every Redis key (`<prefix>throttle:<name>:...`), so deployments sharing one Redis stay apart. */
  readonly redisKeyPrefix: string;
}

/** The guess throttles (docs/configuration.md). */
function throttleLimits(env: NodeJS.ProcessEnv): ThrottleLimits {
  const limit = (name: string, fallback: number) => integer(env[name], name, fallback, 1, 1_000_000);
  return {
    windowSeconds: integer(env.VERIPORT_THROTTLE_WINDOW_SECONDS, 'VERIPORT_THROTTLE_WINDOW_SECONDS', 60, 1, 86_400),
    tokenPerAddress: limit('VERIPORT_THROTTLE_TOKEN_PER_ADDRESS', 300),
    tokenPerClient: limit('VERIPORT_THROTTLE_TOKEN_PER_CLIENT', 100),
    codePerAddress: limit('VERIPORT_THROTTLE_CODE_PER_ADDRESS', 100),
    codePerDevice: limit('VERIPORT_THROTTLE_CODE_PER_DEVICE', 20),
    triggerPerCustomer: limit('VERIPORT_THROTTLE_TRIGGER_PER_CUSTOMER', 120),
    triggerPerUser: limit('VERIPORT_THROTTLE_TRIGGER_PER_USER', 10),
    validatePerAddress: limit('VERIPORT_THROTTLE_VALIDATE_PER_ADDRESS', 30),
    failureWindowSeconds: integer(
      env.VERIPORT_THROTTLE_FAILURE_WINDOW_SECONDS,
      'VERIPORT_THROTTLE_FAILURE_WINDOW_SECONDS',
      900,
      1,
      86_400,
    ),
    failuresPerClient: limit('VERIPORT_THROTTLE_FAILURES_PER_CLIENT', 10),
    failuresPerNetwork: limit('VERIPORT_THROTTLE_FAILURES_PER_NETWORK', 50),
    ...throttleStore(env),
  };
}

/** Where the throttles count: VERIPORT_REDIS_URL and its key prefix (docs/configuration.md). */
function throttleStore(env: NodeJS.ProcessEnv): Pick<ThrottleLimits, 'redisUrl' | 'redisKeyPrefix'> {
  const redisUrl = optionalString(env.VERIPORT_REDIS_URL);
  // The URL may carry a password: the message does not repeat it.
  if (redisUrl !== undefined && !isRedisUrl(redisUrl)) {
    throw new ConfigError('VERIPORT_REDIS_URL must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379/0');
  }
  const redisKeyPrefix = optionalString(env.VERIPORT_REDIS_KEY_PREFIX) ?? 'veriport:';
  if (!/^[A-Za-z0-9:_.-]{1,64}$/.test(redisKeyPrefix)) {
    throw new ConfigError(
      `VERIPORT_REDIS_KEY_PREFIX must be 1 to 64 letters, digits, ':', '_', '.' or '-' (got '${redisKeyPrefix}')`,
    );
  }
  return { redisUrl, redisKeyPrefix };
}

function isRedisUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Time limits and the per-address cap of client connections (docs/configuration.md). */
function connectionLimits(
  env: NodeJS.ProcessEnv,
): Pick<
  VeriportConfig,
  'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs' | 'socketTimeoutMs' | 'maxConnectionsPerAddress'
> {
  const headersTimeoutMs = integer(
    env.VERIPORT_HEADERS_TIMEOUT_MS,
    'VERIPORT_HEADERS_TIMEOUT_MS',
    10_000,
    100,
    600_000,
  );
  const requestTimeoutMs = integer(
    env.VERIPORT_REQUEST_TIMEOUT_MS,
    'VERIPORT_REQUEST_TIMEOUT_MS',
    60_000,
    100,
    3_600_000,
  );
  // Node refuses a headers timeout longer than the request timeout: say so by name rather than at listen.
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(
      `VERIPORT_HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed VERIPORT_REQUEST_TIMEOUT_MS (${requestTimeoutMs})`,
    );
  }
  return {
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: integer(
      env.VERIPORT_KEEP_ALIVE_TIMEOUT_MS,
      'VERIPORT_KEEP_ALIVE_TIMEOUT_MS',
      5_000,
      100,
      600_000,
    ),
    socketTimeoutMs: integer(env.VERIPORT_SOCKET_TIMEOUT_MS, 'VERIPORT_SOCKET_TIMEOUT_MS', 300_000, 1000, 3_600_000),
    maxConnectionsPerAddress: integer(
      env.VERIPORT_MAX_CONNECTIONS_PER_ADDRESS,
      'VERIPORT_MAX_CONNECTIONS_PER_ADDRESS',
      256,
      1,
      1_000_000,
    ),
  };
}

const MAX_CACHE_LIMIT = 10_000_000;

function cacheLimits(raw: string | undefined, name: string): ReadonlyMap<string, number> {
  const value = optionalString(raw);
  const limits = new Map<string, number>();
  if (value === undefined) return limits;
  for (const entry of value.split(',')) {
    const [, cache, limit] = /^\s*([^=\s]+)\s*=\s*(\d+)\s*$/.exec(entry) ?? [];
    if (cache === undefined || limit === undefined || Number(limit) < 1 || Number(limit) > MAX_CACHE_LIMIT) {
      throw new ConfigError(
        `${name} must be a list like 'staff=500,visitors=20000' with limits from 1 to ${MAX_CACHE_LIMIT} (got '${entry.trim()}')`,
      );
    }
    limits.set(cache, Number(limit));
  }
  return limits;
}

function secretBytes(raw: string | undefined, name: string): Buffer | undefined {
  const value = optionalString(raw);
  if (value === undefined) return undefined;
  const bytes = /^[A-Za-z0-9+/]+={0,2}$/.test(value) ? Buffer.from(value, 'base64') : Buffer.alloc(0);
  if (bytes.length < 32)
    throw new ConfigError(`${name} must be at least 32 random bytes in base64 (e.g. openssl rand -base64 32)`);
  return bytes;
}

function signalModes(raw: string | undefined, name: string): ReadonlyMap<IadSignalName, SignalMode> {
  const value = optionalString(raw);
  const modes = new Map<IadSignalName, SignalMode>();
  if (value === undefined) return modes;
  for (const entry of value.split(',')) {
    const [signal, mode] = entry.split('=').map((part) => part.trim());
    if (!signal || !isIadSignalName(signal) || mode === undefined || !isSignalMode(mode)) {
      throw new ConfigError(
        `${name} must be a list like 'spectral_analysis=DECISIONING' of ${IAD_SIGNAL_NAMES.join(', ')} with ${SIGNAL_MODES.join(' or ')} (got '${entry.trim()}')`,
      );
    }
    modes.set(signal, mode);
  }
  return modes;
}

/** The notification channels of the QR hand-over (docs/configuration.md); each unset one only logs. */
export interface NotificationSettings {
  /** `smtp://` or `smtps://` URL of the mail server, credentials included (never logged). */
  readonly smtpUrl: string | undefined;
  /** The From address of the e-mails; required with `smtpUrl`. */
  readonly smtpFrom: string | undefined;
  /** Where push notifications are POSTed as JSON. */
  readonly pushWebhookUrl: string | undefined;
  /** HMAC-SHA256 key that signs each webhook body (`x-veriport-signature: sha256=<hex>`); optional. */
  readonly pushWebhookSecret: string | undefined;
}

function notificationSettings(env: NodeJS.ProcessEnv): NotificationSettings {
  const smtpUrl = optionalString(env.VERIPORT_SMTP_URL);
  // The URL may carry a password: the message does not repeat it.
  if (smtpUrl !== undefined && !/^smtps?:\/\/[^\s/]+/.test(smtpUrl))
    throw new ConfigError(
      'VERIPORT_SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtps://user:pass@mail.example.com',
    );
  const smtpFrom = optionalString(env.VERIPORT_SMTP_FROM);
  if (smtpUrl !== undefined && (smtpFrom === undefined || !smtpFrom.includes('@')))
    throw new ConfigError(
      'VERIPORT_SMTP_FROM must be set to the sender address (e.g. Veriport <no-reply@example.com>)',
    );
  const pushWebhookUrl = optionalString(env.VERIPORT_PUSH_WEBHOOK_URL);
  if (pushWebhookUrl !== undefined && !/^https?:\/\/[^\s/]+/.test(pushWebhookUrl))
    throw new ConfigError('VERIPORT_PUSH_WEBHOOK_URL must be an http:// or https:// URL');
  const pushWebhookSecret = optionalString(env.VERIPORT_PUSH_WEBHOOK_SECRET);
  if (pushWebhookSecret !== undefined && pushWebhookSecret.length < 16)
    throw new ConfigError('VERIPORT_PUSH_WEBHOOK_SECRET must be at least 16 characters');
  return { smtpUrl, smtpFrom, pushWebhookUrl, pushWebhookSecret };
}

function absoluteUrl(raw: string | undefined, name: string): string | undefined {
  const value = optionalString(raw);
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    if (url.hash !== '') throw new ConfigError(`${name} must not have a #fragment (got '${value}')`);
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`${name} must be an absolute URL, e.g. https://id.example.com/capture (got '${value}')`);
  }
  return value;
}

function publicUrl(raw: string | undefined): string | undefined {
  const value = optionalString(raw);
  if (value === undefined) return undefined;
  if (!/^https?:\/\/[^/\s]+(\/[^\s]*)?$/.test(value))
    throw new ConfigError(`VERIPORT_PUBLIC_URL must be an http:// or https:// URL (got '${value}')`);
  return value.replace(/\/+$/, '');
}

function optionalString(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function integer(raw: string | undefined, name: string, fallback: number, min: number, max: number): number {
  const value = optionalString(raw);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got '${value}')`);
  }
  return Number(value);
}

function padModelKind(raw: string | undefined): PadModelKind {
  const kind = parsePadModelKind(raw);
  if (kind === undefined) {
    throw new ConfigError(
      `VERIPORT_PAD_MODEL must be one of ${PAD_MODEL_KINDS.join(', ')} (got '${optionalString(raw) ?? ''}')`,
    );
  }
  return kind;
}

function faceDetectorKind(raw: string | undefined): FaceDetectorKind {
  const kind = parseFaceDetectorKind(raw);
  if (kind === undefined) {
    throw new ConfigError(
      `VERIPORT_FACE_DETECTOR must be one of ${FACE_DETECTOR_KINDS.join(', ')} (got '${optionalString(raw) ?? ''}')`,
    );
  }
  return kind;
}

function boolean(raw: string | undefined, name: string, fallback: boolean): boolean {
  const value = optionalString(raw)?.toLowerCase();
  if (value === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new ConfigError(`${name} must be true or false (got '${value}')`);
}

function byteSize(raw: string | undefined, name: string, fallback: number): number {
  const value = optionalString(raw)?.toLowerCase();
  if (value === undefined) return fallback;
  const match = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/.exec(value);
  const bytes = match ? Math.floor(Number(match[1]) * (SIZE_UNITS[match[2] ?? ''] ?? 1)) : NaN;
  if (!Number.isFinite(bytes) || bytes < 1024) {
    throw new ConfigError(`${name} must be a size of at least 1kb, such as 20mb or 1048576 (got '${value}')`);
  }
  return bytes;
}

// Six digits at least: a stray or guessed call must not be able to wipe counters or stop the server.
function confirmCode(raw: string | undefined): number | undefined {
  const value = optionalString(raw);
  if (value === undefined) return undefined;
  if (!/^[1-9]\d{5,14}$/.test(value)) {
    throw new ConfigError('VERIPORT_ADMIN_CONFIRM must be an integer of 6 to 15 digits not starting with 0');
  }
  return Number(value);
}

/** `VERIPORT_TRUST_STORE_DIR`, else `trust-store` beside the PGlite data (none for an in-memory store). */
function trustStoreDir(env: NodeJS.ProcessEnv, dataDir: string): string | undefined {
  const explicit = optionalString(env.VERIPORT_TRUST_STORE_DIR);
  if (explicit !== undefined) return explicit;
  return dataDir.startsWith('memory://') ? undefined : `${dataDir.replace(/\/+$/, '')}/trust-store`;
}

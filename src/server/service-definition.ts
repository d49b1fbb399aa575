import type { FastifyInstance } from 'fastify';
import type { EnvelopeKeyRing } from '../crypto/envelope-key-ring.js';
import type { EnvelopePurpose } from '../lib/envelope-purpose.js';
import type { ExportedTemplateSealer } from '../crypto/exported-template-sealing.js';
import type { TemplateSealer } from '../crypto/template-sealing.js';
import type { Store } from '../store/database.js';
import type { UsageCountersRepository } from '../store/usage-counters.js';
import type { FaceEngine } from '../engines/face/face-engine.js';
import type { DocumentEngine } from '../engines/document/document-engine.js';
import type { VoiceEngine } from '../engines/voice/voice-engine.js';
import type { CheckIssuedCredentials } from './access/credentials.js';
import type { VeriportConfig } from './config.js';
import type { ErrorStyle } from './errors/error-body.js';
import type { ThrottleStore } from './throttle-store.js';

/** The nine services of the spec, by the name the usage report uses for them. */
export const SERVICE_NAMES = [
  'onboarding',
  'face-liveness',
  'document-autocapture',
  'face-analysis',
  'voice-liveness',
  'face-matching',
  'voice-matching',
  'document-validation',
  'transaction-report',
] as const;

export type ServiceName = (typeof SERVICE_NAMES)[number];

/** What the server hands every service plugin; a service takes what it needs and nothing else. */
export interface ServiceDependencies {
  readonly config: VeriportConfig;
  readonly store: Store;
  /** The shared face engine (worker pool), started on first use (at start when the app warms its engines). */
  readonly faceEngine: () => FaceEngine;
  /** The shared document engine (worker pool reading MRZ, page and quality), started on first use. */
  readonly documentEngine: () => DocumentEngine;
  /** The shared voice engine (worker pool: decoding, voice activity, speaker, spoof models), started on first use. */
  readonly voiceEngine: () => VoiceEngine;
  /**
   * The envelope key pairs, one per purpose: a service opens its `*Encrypted` packages (or onboarding its
   * frames) with `envelopeKeys.key(<its purpose>)` only. Holds onboarding's and the mounted services'.
   */
  readonly envelopeKeys: EnvelopeKeyRing;
  /**
   * Seals biometric templates at rest: keyed by `config.templateKey`, or by the onboarding private key
   * (the single server key of earlier releases) when none is configured. Built once by the app, so every
   * service seals alike.
   */
  readonly templateSealer: TemplateSealer;
  /**
   * Seals the templates `/export` answers and opens the ones `import` takes: the same secret as
   * `templateSealer`, its own derived key (src/crypto/exported-template-sealing.ts).
   */
  readonly exportedTemplateSealer: ExportedTemplateSealer;
  readonly usage: {
    readonly repository: UsageCountersRepository;
    /** Writes this process's buffered counts, so a report read right after sees them. */
    flush(): Promise<void>;
  };
  /** Starts a graceful stop of the whole process once the current response has been sent. */
  requestShutdown(): void;
  /** Where guess throttles count: Redis shared by the replicas (VERIPORT_REDIS_URL), else this process. */
  readonly throttleStore: ThrottleStore;
}

/** A service as the server mounts it: a Fastify plugin plus how its errors and bodies look. */
export interface ServiceDefinition {
  readonly name: ServiceName;
  /** Base path in the all-in-one server (DESIGN.md §1); '' for onboarding, whose paths are rooted. */
  readonly prefix: string;
  readonly description: string;
  readonly errorStyle: ErrorStyle;
  /**
   * The spec's examples label JSON bodies `text/plain` for these services, so such bodies are parsed as JSON;
   * the other services answer a `text/plain` body with 415.
   */
  readonly jsonAsTextPlain: boolean;
  /**
   * The envelope purpose whose key pair opens the service's encrypted packages (src/lib/envelope-purpose.ts);
   * the app loads the pairs of the mounted services' purposes, onboarding's always. Unset: no encrypted calls.
   */
  readonly envelopePurpose?: EnvelopePurpose;
  /**
   * Who checks the credentials of its calls (docs/decisions.md, Authentication):
   * - `customer` (the default, so a new service has it): `mountService` runs the shared check
   *   (server/access/) before every route but those marked `config: { access: 'public' }` (`GET /version`):
   *   a customer's onboarding access token or API key, or the admin key; `VERIPORT_AUTH=off` turns it off;
   * - `onboarding`: the service checks its own routes (its token endpoint is open; the rest need token and key).
   */
  readonly authentication?: 'customer' | 'onboarding';
  /**
   * Credentials the service issues that the other services' routes accept too, checked before a customer's
   * (onboarding: a QR session's key and accessToken on the capture app's live guidance, session-confinement.ts).
   */
  readonly issuedCredentials?: (dependencies: ServiceDependencies) => CheckIssuedCredentials;
  /** Adds the service's routes (docs/architecture.md: routes + schemas -> domain functions -> engines). */
  readonly plugin: ServiceRoutes;
}

/**
 * Registers a service's routes in the scope the server gives it; asynchronous only where it waits
 * for something (a nested plugin).
 */
export type ServiceRoutes = (app: FastifyInstance, dependencies: ServiceDependencies) => void | Promise<void>;

/**
 * Warming the engines at start (docs/decisions.md, "Engine warm-up"): the engines the mounted services use load
 * their models in every worker thread before the server listens, so the first request of each kind does not pay
 * for the loading (seconds: OpenCV, the OCR and face models), and a missing or broken model file stops the start
 * with an error naming the file instead of answering that first request with a 500.
 */
import type { FaceEngine } from '../engines/face/face-engine.js';
import type { DocumentEngine } from '../engines/document/document-engine.js';
import type { VoiceEngine } from '../engines/voice/voice-engine.js';
import type { ServiceName } from './service-definition.js';

export type EngineName = 'face' | 'document' | 'voice';

/**
 * The engines each service runs (its `faceEngine()`, `documentEngine()`, `voiceEngine()` calls): a new service
 * must say which it needs before it compiles.
 */
export const SERVICE_ENGINES: Readonly<Record<ServiceName, readonly EngineName[]>> = {
  onboarding: ['face'],
  'face-liveness': ['face'],
  'document-autocapture': ['document'],
  'face-analysis': ['face'],
  'voice-liveness': ['voice'],
  'face-matching': ['face'],
  'voice-matching': ['voice'],
  // The printed portrait is found and embedded by the face engine.
  'document-validation': ['document', 'face'],
  'transaction-report': [],
};

/** How to get each engine (started on first call, as the services get them). */
export interface EngineAccess {
  readonly face: () => FaceEngine;
  readonly document: () => DocumentEngine;
  readonly voice: () => VoiceEngine;
}

/** An engine that did not warm up: its models, or one of their files, do not load. */
export class EngineWarmUpError extends Error {
  constructor(
    readonly engine: EngineName,
    cause: unknown,
  ) {
    super(`${engine} engine did not warm up: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'EngineWarmUpError';
  }
}

/**
 * The engines `services` use, in a fixed order (face, document, voice).
 *
 * @example
 * enginesOf([documentValidationService]); // ['face', 'document']
 */
export function enginesOf(services: readonly { readonly name: ServiceName }[]): EngineName[] {
  const used = new Set(services.flatMap((service) => SERVICE_ENGINES[service.name]));
  return (['face', 'document', 'voice'] as const).filter((engine) => used.has(engine));
}

/**
 * Starts the named engines and loads their models in every worker, all engines at once; answers the seconds each
 * took.
 *
 * @example
 * const took = await warmEngines(['face', 'document'], engines); // { face: 2.1, document: 3.4 }
 * @throws {EngineWarmUpError} for the first engine that failed, naming it (and its cause the file)
 */
export async function warmEngines(
  names: readonly EngineName[],
  engines: EngineAccess,
): Promise<Partial<Record<EngineName, number>>> {
  const started = performance.now();
  const outcomes = await Promise.allSettled(
    names.map(async (name) => {
      await engines[name]().warm();
      return [name, Math.round(performance.now() - started) / 1000] as const;
    }),
  );
  const took: Partial<Record<EngineName, number>> = {};
  for (const [i, outcome] of outcomes.entries()) {
    const name = names[i];
    if (name === undefined) continue;
    if (outcome.status === 'rejected') throw new EngineWarmUpError(name, outcome.reason);
    took[name] = outcome.value[1];
  }
  return took;
}

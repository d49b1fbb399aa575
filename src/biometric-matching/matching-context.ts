import type { ExportedTemplateSealer } from '../crypto/exported-template-sealing.js';
import type { CalibratedScore } from '../engines/scoring/calibrated-score.js';
import type { CacheGalleries } from '../engines/matching/cache-galleries.js';
import type { TemplateVectors } from '../engines/matching/template-family.js';

/** What every sample of a matching service may be: its raw form (image, voice samples) or an `import`. */
export interface BiometricSample {
  readonly import?: string | undefined;
}

/**
 * What the matching domain functions shared by face and voice matching work with: every customer's caches of
 * the service (the functions take the caller's customer scope and reach only its caches), their limits, the
 * sealer of exported templates, and the modality's own parts: how a sample becomes template vectors and which
 * algorithm a workflow names. `A` is the algorithm name, `S` the sample (probe, gallery item, encounter
 * content), `W` the workflow.
 *
 * @example
 * const matching: MatchingContext<'F200' | 'F500', FaceSample, Workflow> = faceMatchingContext(deps);
 * await addEncounter(matching, 'acme', 'staff', { id: 'alice', VISIBLE_FRONTAL: jpegBase64 });
 */
export interface MatchingContext<A extends string, S extends BiometricSample, W> {
  /** The caches; `caches.family` names the algorithms and calibrates their scores. */
  readonly caches: CacheGalleries<A>;
  /** Most encounters a cache of this name may hold, in each customer's namespace. */
  limitOf(cacheName: string): number;
  /** Seals the templates `/export` answers and opens imported ones. */
  readonly exports: ExportedTemplateSealer;
  /**
   * Unit vectors of a sample for the given algorithms (a raw sample through the engine, an `import` opened);
   * `field` names it in errors; `workflow`, when the call has one, may restrict what samples it accepts.
   */
  vectors(sample: S, field: string, algorithms: readonly A[], workflow?: W): Promise<TemplateVectors<A>>;
  /** The algorithm a workflow asks for (the family's default without one). @throws {ApiError} 400 -6 */
  algorithmOf(workflow: W | undefined): A;
  /**
   * A score of two templates (the family's `similarity`) with its calibrated forms: the algorithm's table, or
   * (voice) the table the workflow's sample types pick.
   */
  calibrated(algorithm: A, score: number, workflow: W | undefined): CalibratedScore;
  /** Whether a sample carries a raw form (addBatch takes templates only). */
  hasRawSample(sample: S): boolean;
}

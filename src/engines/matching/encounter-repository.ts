/**
 * The store of enrolled encounters as the matching caches use it: the store's repository
 * (src/store/biometric-encounters.ts) has this shape, and engines never import the store, so the shape is
 * declared here and satisfied structurally.
 */

/** A template as stored: sealed bytes of one algorithm of one encounter. */
export interface SealedTemplate {
  readonly encounterId: string;
  readonly algorithm: string;
  readonly sealed: Uint8Array;
}

/** An encounter to store, with one sealed template per algorithm it was enrolled for. */
export interface SealedEncounter {
  readonly id: string;
  readonly templates: ReadonlyArray<{ readonly algorithm: string; readonly sealed: Uint8Array }>;
}

export type EncounterAddOutcome =
  | { readonly kind: 'added'; readonly generation: number }
  | { readonly kind: 'exists'; readonly id: string }
  | { readonly kind: 'full'; readonly limit: number };

export type EncounterReplaceOutcome =
  { readonly kind: 'updated'; readonly generation: number } | { readonly kind: 'absent' };

/**
 * One customer's caches of one matching service.
 *
 * @example
 * const repository: EncounterRepository = biometricEncountersRepository(store.db, 'voice-matching', 'acme');
 */
export interface EncounterRepository {
  /** Adds all the encounters or none: refused when an id exists or the cache would pass `limit`. */
  add(cache: string, encounters: readonly SealedEncounter[], limit: number): Promise<EncounterAddOutcome>;
  /** Replaces every template of an existing encounter. */
  replace(cache: string, encounter: SealedEncounter): Promise<EncounterReplaceOutcome>;
  /** Removes an encounter; undefined when it was not there, else the cache's new generation. */
  remove(cache: string, id: string): Promise<number | undefined>;
  /** Empties the cache: how many encounters it held, and its new generation. */
  drop(cache: string): Promise<{ removed: number; generation: number }>;
  /** The cache's change counter; undefined for a cache never written. */
  generation(cache: string): Promise<number | undefined>;
  /** Every template of the cache with the generation they belong to (read in one transaction). */
  load(cache: string): Promise<{ generation: number; templates: SealedTemplate[] }>;
}

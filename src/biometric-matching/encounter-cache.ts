import type { CacheGalleries, CacheRef } from '../engines/matching/cache-galleries.js';
import type { TemplateVectors } from '../engines/matching/template-family.js';
import { ApiError, invalidValue } from '../server/errors/api-error.js';
import { checkedCache, checkedCacheName } from './cache-name.js';
import type { BiometricSample, MatchingContext } from './matching-context.js';

/** The cache is full: the spec's 500 code (Doc 3, Limits). */
export const CACHE_FULL = 1015;

/** An encounter of add, addBatch and update: its id and a sample (raw or `import`). */
export type EncounterOf<S extends BiometricSample> = S & { readonly id: string };

/** A matching context of any workflow type: the workflow plays no part in these calls. */
type AnyMatching<A extends string, S extends BiometricSample> = MatchingContext<A, S, unknown>;

/**
 * Most encounters the cache may hold (the service's cache limit, or its own limit by name): the same for
 * every customer's cache of that name, each counted on its own.
 *
 * @example
 * maxEncounters(matching, 'staff'); // 100000
 */
export function maxEncounters<A extends string, S extends BiometricSample>(
  matching: AnyMatching<A, S>,
  cacheName: string,
): number {
  return matching.limitOf(checkedCacheName(cacheName));
}

/**
 * Ids of the encounters in the customer's cache, sorted.
 *
 * @example
 * await encounterIds(matching, 'acme', 'staff'); // ['alice', 'bob']
 */
export async function encounterIds<A extends string, S extends BiometricSample>(
  matching: AnyMatching<A, S>,
  customer: string,
  cacheName: string,
): Promise<string[]> {
  return [...(await matching.caches.fresh(checkedCache(customer, cacheName))).ids].sort();
}

/**
 * Adds one encounter (raw sample or template) to the customer's cache; the first add creates the cache.
 *
 * @example
 * await addEncounter(matching, 'acme', 'staff', { id: 'alice', VISIBLE_FRONTAL: jpegBase64 }); // { id: 'alice' }
 * @throws {ApiError} 400 -6 when the id exists already, 500 1015 when the cache is full
 */
export async function addEncounter<A extends string, S extends BiometricSample>(
  matching: AnyMatching<A, S>,
  customer: string,
  cacheName: string,
  encounter: EncounterOf<S>,
): Promise<{ id: string }> {
  const cache = checkedCache(customer, cacheName);
  const added = await matching.caches.add(
    cache,
    [{ id: encounter.id, vectors: await encounterVectors(matching, encounter, 'encounter') }],
    matching.limitOf(cache.name),
  );
  refuseUnlessAdded(added, cache);
  return { id: encounter.id };
}

/**
 * Adds template encounters to the customer's cache, all or none; a raw sample or an id given twice refuses
 * the whole batch.
 *
 * @example
 * await addEncounters(matching, 'acme', 'staff', [{ id: 'alice', import: templateBase64 }]); // ['alice']
 */
export async function addEncounters<A extends string, S extends BiometricSample>(
  matching: AnyMatching<A, S>,
  customer: string,
  cacheName: string,
  encounters: ReadonlyArray<EncounterOf<S>>,
): Promise<string[]> {
  const cache = checkedCache(customer, cacheName);
  const seen = new Set<string>();
  const batch = await Promise.all(
    encounters.map(async (encounter, i) => {
      if (encounter.import === undefined || matching.hasRawSample(encounter)) {
        throw invalidValue(`[${i}]: addBatch takes template encounters: give 'import' only`);
      }
      if (seen.has(encounter.id)) throw invalidValue(`[${i}]: id '${encounter.id}' appears twice in the batch`);
      seen.add(encounter.id);
      return { id: encounter.id, vectors: await encounterVectors(matching, encounter, `[${i}]`) };
    }),
  );
  if (batch.length === 0) return [];
  refuseUnlessAdded(await matching.caches.add(cache, batch, matching.limitOf(cache.name)), cache);
  return batch.map((e) => e.id);
}

/**
 * Replaces the sample of an encounter the customer's cache holds.
 *
 * @example
 * await updateEncounter(matching, 'acme', 'staff', { id: 'alice', VISIBLE_FRONTAL: newerJpegBase64 });
 * @throws {ApiError} 400 -6 when the cache has no such encounter
 */
export async function updateEncounter<A extends string, S extends BiometricSample>(
  matching: AnyMatching<A, S>,
  customer: string,
  cacheName: string,
  encounter: EncounterOf<S>,
): Promise<void> {
  const cache = checkedCache(customer, cacheName);
  const vectors = await encounterVectors(matching, encounter, 'encounter');
  const outcome = await matching.caches.replace(cache, encounter.id, vectors);
  if (outcome.kind === 'absent')
    throw invalidValue(`no encounter '${encounter.id}' in cache '${cache.name}': use /add`);
}

/**
 * Removes an encounter from the customer's cache.
 *
 * @example
 * await deleteEncounter(matching, 'acme', 'staff', 'alice');
 * @throws {ApiError} 400 -6 when the cache has no such encounter
 */
export async function deleteEncounter<A extends string, S extends BiometricSample>(
  matching: AnyMatching<A, S>,
  customer: string,
  cacheName: string,
  id: string,
): Promise<void> {
  const cache = checkedCache(customer, cacheName);
  if (!(await matching.caches.remove(cache, id))) throw invalidValue(`no encounter '${id}' in cache '${cache.name}'`);
}

/**
 * Empties the customer's cache; the number of encounters removed.
 *
 * @example
 * await dropCache(matching, 'acme', 'staff'); // 2
 */
export function dropCache<A extends string, S extends BiometricSample>(
  matching: AnyMatching<A, S>,
  customer: string,
  cacheName: string,
): Promise<number> {
  return matching.caches.dropAll(checkedCache(customer, cacheName));
}

/** An encounter enrolled from a raw sample gets a template of every algorithm (one engine pass). */
function encounterVectors<A extends string, S extends BiometricSample>(
  matching: AnyMatching<A, S>,
  encounter: S,
  field: string,
): Promise<TemplateVectors<A>> {
  return matching.vectors(encounter, field, matching.caches.family.algorithms);
}

function refuseUnlessAdded<A extends string>(
  outcome: Awaited<ReturnType<CacheGalleries<A>['add']>>,
  cache: CacheRef,
): void {
  if (outcome.kind === 'exists')
    throw invalidValue(`encounter '${outcome.id}' exists already in cache '${cache.name}': use /update to replace it`);
  if (outcome.kind === 'full')
    throw new ApiError(500, CACHE_FULL, `cache '${cache.name}' is full: it holds at most ${outcome.limit} encounters`);
}

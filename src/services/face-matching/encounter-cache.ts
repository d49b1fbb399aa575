import { FACE_ALGORITHM_NAMES } from '../../engines/face/algorithms.js';
import { ApiError, invalidValue } from '../../server/errors/api-error.js';
import type { CacheGalleries, CacheRef } from './cache-galleries.js';
import { checkedCache, checkedCacheName } from './cache-name.js';
import type { FaceVectors } from './face-samples.js';
import type { FaceMatchingContext } from './matching-context.js';
import type { Encounter } from './schemas.js';

/** The cache is full: the spec's 500 code. */
const CACHE_FULL = 1015;

/**
 * Most encounters the cache may hold (`VERIPORT_FACE_CACHE_LIMIT`, or its own limit by name): the same for
 * every customer's cache of that name, each counted on its own.
 *
 * @example
 * maxEncounters(matching, 'staff'); // 100000
 */
export function maxEncounters(matching: FaceMatchingContext, cacheName: string): number {
  return matching.limitOf(checkedCacheName(cacheName));
}

/**
 * Ids of the encounters in the customer's cache, sorted.
 *
 * @example
 * await encounterIds(matching, 'acme', 'staff'); // ['alice', 'bob']
 */
export async function encounterIds(
  matching: FaceMatchingContext,
  customer: string,
  cacheName: string,
): Promise<string[]> {
  return [...(await matching.caches.fresh(checkedCache(customer, cacheName))).ids].sort();
}

/**
 * Adds one encounter (image or template) to the customer's cache; the first add creates the cache.
 *
 * @example
 * await addEncounter(matching, 'acme', 'staff', { id: 'alice', VISIBLE_FRONTAL: jpegBase64 }); // { id: 'alice' }
 * @throws {ApiError} 400 -6 when the id exists already, 500 1015 when the cache is full
 */
export async function addEncounter(
  matching: FaceMatchingContext,
  customer: string,
  cacheName: string,
  encounter: Encounter,
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
 * Adds template encounters to the customer's cache, all or none; an image or an id given twice refuses the
 * whole batch.
 *
 * @example
 * await addEncounters(matching, 'acme', 'staff', [{ id: 'alice', import: templateBase64 }]); // ['alice']
 */
export async function addEncounters(
  matching: FaceMatchingContext,
  customer: string,
  cacheName: string,
  encounters: readonly Encounter[],
): Promise<string[]> {
  const cache = checkedCache(customer, cacheName);
  const seen = new Set<string>();
  const batch = await Promise.all(
    encounters.map(async (encounter, i) => {
      if (encounter.import === undefined || encounter.VISIBLE_FRONTAL !== undefined) {
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
 * Replaces the face of an encounter the customer's cache holds.
 *
 * @example
 * await updateEncounter(matching, 'acme', 'staff', { id: 'alice', VISIBLE_FRONTAL: newerJpegBase64 });
 * @throws {ApiError} 400 -6 when the cache has no such encounter
 */
export async function updateEncounter(
  matching: FaceMatchingContext,
  customer: string,
  cacheName: string,
  encounter: Encounter,
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
export async function deleteEncounter(
  matching: FaceMatchingContext,
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
export function dropCache(matching: FaceMatchingContext, customer: string, cacheName: string): Promise<number> {
  return matching.caches.dropAll(checkedCache(customer, cacheName));
}

/** An encounter enrolled from an image gets a template of every algorithm (one engine pass). */
function encounterVectors(matching: FaceMatchingContext, encounter: Encounter, field: string): Promise<FaceVectors> {
  return matching.vectors(encounter, field, FACE_ALGORITHM_NAMES);
}

function refuseUnlessAdded(outcome: Awaited<ReturnType<CacheGalleries['add']>>, cache: CacheRef): void {
  if (outcome.kind === 'exists')
    throw invalidValue(`encounter '${outcome.id}' exists already in cache '${cache.name}': use /update to replace it`);
  if (outcome.kind === 'full')
    throw new ApiError(500, CACHE_FULL, `cache '${cache.name}' is full: it holds at most ${outcome.limit} encounters`);
}

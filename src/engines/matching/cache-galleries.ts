import type { TemplateSealer } from '../../crypto/template-sealing.js';
import { decodeTemplate, encodeTemplate } from '../templates/template-codec.js';
import type { EncounterRepository, SealedEncounter } from './encounter-repository.js';
import { familyAlgorithm, type TemplateFamily, type TemplateVectors } from './template-family.js';
import { VectorGallery } from './vector-gallery.js';

/**
 * A cache as a call names it: the customer scope of the call (src/server/access/customer-scope.ts) and the
 * cache name of the path. Two customers' caches of one name are two caches.
 */
export interface CacheRef {
  readonly customer: string;
  readonly name: string;
}

/**
 * A cache as held in memory: one gallery per algorithm (of the templates' scoring vectors: TemplateFamily
 * `scoringVector`), and the encounters that could not be read.
 */
export interface LoadedCache<A extends string = string> {
  readonly generation: number;
  readonly galleries: ReadonlyMap<A, VectorGallery>;
  /** Every encounter id of the cache. */
  readonly ids: ReadonlySet<string>;
  /** Encounters whose stored template did not open or decode, with why. */
  readonly unreadable: ReadonlyMap<string, string>;
}

interface MutableCache<A extends string> {
  generation: number;
  galleries: Map<A, VectorGallery>;
  ids: Set<string>;
  unreadable: Map<string, string>;
}

/**
 * The caches of one matching service (face or voice: `family` says which algorithms) for every customer:
 * stored sealed in the database (the source of truth, shared by replicas) and mirrored in memory as
 * contiguous galleries for fast search, one per algorithm, each cache under its (customer, name) pair. Every
 * read checks the cache's generation in the store and reloads when another process changed it; this
 * process's own changes are applied in place.
 *
 * @example
 * const caches = new CacheGalleries((customer) => biometricEncountersRepository(db, 'face-matching', customer),
 *   sealer, 'face-matching', FACE_TEMPLATES);
 * const staff = { customer: 'acme', name: 'staff' };
 * await caches.add(staff, [{ id: 'alice', vectors: { F200: v200, F500: v500 } }], 10_000);
 * const { galleries } = await caches.fresh(staff);
 */
export class CacheGalleries<A extends string> {
  private readonly caches = new Map<string, MutableCache<A>>();
  private readonly loading = new Map<string, Promise<MutableCache<A>>>();

  constructor(
    /** The store's caches of one customer. */
    private readonly repositoryOf: (customer: string) => EncounterRepository,
    private readonly sealer: TemplateSealer,
    /** The service name: part of every sealing context, so no template opens in another service's cache. */
    private readonly service: string,
    readonly family: TemplateFamily<A>,
  ) {}

  /** The cache as the store holds it now. */
  async fresh(cache: CacheRef): Promise<LoadedCache<A>> {
    const generation = (await this.repositoryOf(cache.customer).generation(cache.name)) ?? 0;
    const held = this.caches.get(keyOf(cache));
    if (held && held.generation >= generation) return held;
    return this.reload(cache);
  }

  /** Adds encounters (all or none); the outcome of the store decides. */
  async add(cache: CacheRef, encounters: ReadonlyArray<{ id: string; vectors: TemplateVectors<A> }>, limit: number) {
    const outcome = await this.repositoryOf(cache.customer).add(
      cache.name,
      encounters.map((e) => this.seal(cache, e.id, e.vectors)),
      limit,
    );
    if (outcome.kind === 'added')
      this.applyInPlace(cache, outcome.generation, (c) => encounters.forEach((e) => this.put(c, e.id, e.vectors)));
    return outcome;
  }

  async replace(cache: CacheRef, id: string, vectors: TemplateVectors<A>) {
    const outcome = await this.repositoryOf(cache.customer).replace(cache.name, this.seal(cache, id, vectors));
    if (outcome.kind === 'updated') {
      this.applyInPlace(cache, outcome.generation, (c) => {
        this.drop(c, id);
        this.put(c, id, vectors);
      });
    }
    return outcome;
  }

  async remove(cache: CacheRef, id: string): Promise<boolean> {
    const generation = await this.repositoryOf(cache.customer).remove(cache.name, id);
    if (generation === undefined) return false;
    this.applyInPlace(cache, generation, (c) => this.drop(c, id));
    return true;
  }

  async dropAll(cache: CacheRef): Promise<number> {
    const { removed, generation } = await this.repositoryOf(cache.customer).drop(cache.name);
    this.applyInPlace(cache, generation, (c) => {
      c.galleries.clear();
      c.ids.clear();
      c.unreadable.clear();
    });
    return removed;
  }

  /**
   * Applies a change made by this process if the memory copy was current just before it; otherwise
   * the next read reloads.
   */
  private applyInPlace(cache: CacheRef, generation: number, change: (c: MutableCache<A>) => void): void {
    const key = keyOf(cache);
    const held = this.caches.get(key);
    if (held && held.generation === generation - 1) {
      change(held);
      held.generation = generation;
    } else {
      this.caches.delete(key);
    }
  }

  private reload(cache: CacheRef): Promise<MutableCache<A>> {
    const key = keyOf(cache);
    let pending = this.loading.get(key);
    if (!pending) {
      pending = this.load(cache).finally(() => this.loading.delete(key));
      this.loading.set(key, pending);
    }
    return pending;
  }

  private async load(cache: CacheRef): Promise<MutableCache<A>> {
    const { generation, templates } = await this.repositoryOf(cache.customer).load(cache.name);
    const loaded: MutableCache<A> = { generation, galleries: new Map(), ids: new Set(), unreadable: new Map() };
    for (const stored of templates) {
      loaded.ids.add(stored.encounterId);
      const algorithm = familyAlgorithm(this.family, stored.algorithm);
      try {
        if (!algorithm) throw new Error(`unknown algorithm ${stored.algorithm}`);
        const template = decodeTemplate(
          this.sealer.open(stored.sealed, this.context(cache, stored.encounterId, algorithm)),
        );
        this.galleryOf(loaded, algorithm).add(
          stored.encounterId,
          this.family.scoringVector(algorithm, template.vector),
        );
      } catch (error) {
        loaded.unreadable.set(
          stored.encounterId,
          `stored template cannot be read: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    const key = keyOf(cache);
    const held = this.caches.get(key);
    // A change this process applied while the load ran is newer: keep it.
    if (held && held.generation > generation) return held;
    this.caches.set(key, loaded);
    return loaded;
  }

  private put(c: MutableCache<A>, id: string, vectors: TemplateVectors<A>): void {
    c.ids.add(id);
    for (const algorithm of this.family.algorithms) {
      const vector = vectors[algorithm];
      if (vector) this.galleryOf(c, algorithm).add(id, this.family.scoringVector(algorithm, vector));
    }
  }

  private drop(c: MutableCache<A>, id: string): void {
    c.ids.delete(id);
    c.unreadable.delete(id);
    for (const gallery of c.galleries.values()) gallery.remove(id);
  }

  private galleryOf(c: MutableCache<A>, algorithm: A): VectorGallery {
    let gallery = c.galleries.get(algorithm);
    if (!gallery) {
      gallery = new VectorGallery(this.family.dimensions(algorithm), 'int8');
      c.galleries.set(algorithm, gallery);
    }
    return gallery;
  }

  private seal(cache: CacheRef, id: string, vectors: TemplateVectors<A>): SealedEncounter {
    return {
      id,
      templates: this.family.algorithms.flatMap((algorithm) => {
        const vector = vectors[algorithm];
        if (!vector) return [];
        const bytes = encodeTemplate({ modality: this.family.modality, algorithm, vector });
        return [{ algorithm, sealed: this.sealer.seal(bytes, this.context(cache, id, algorithm)) }];
      }),
    };
  }

  /**
   * What a sealed template is bound to: a row moved to another cache, id, algorithm or customer does not open.
   * Caches without a customer keep the context they were sealed under before caches had owners; a checked
   * cache name holds no ':' and an encoded customer no '/', so no two caches share a context.
   */
  private context(cache: CacheRef, id: string, algorithm: string): string {
    const owner = cache.customer === '' ? '' : `customer:${encodeURIComponent(cache.customer)}/`;
    return `${this.service}/${owner}${cache.name}/${id}/${algorithm}`;
  }
}

/**
 * The in-memory key of a cache: a JSON pair, so no customer and name can collide with another pair
 * (customer 'a' with cache 'b:c' is not customer 'a:b' with cache 'c').
 */
function keyOf(cache: CacheRef): string {
  return JSON.stringify([cache.customer, cache.name]);
}

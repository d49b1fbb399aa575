import { type MatchKernel, createKernel, probeBytes, rowBytes } from './simd-kernel.js';

/** How rows are stored: int8 (a quarter of the memory, scores within ~0.01) or exact float32. */
export type GalleryQuantisation = 'int8' | 'float32';

/** One search result: an enrolled id and its cosine score against the probe. */
export interface GalleryHit {
  readonly id: string;
  readonly score: number;
}

/** Rows allocated up front; storage doubles from here. */
const INITIAL_CAPACITY = 256;
const PAGE_BYTES = 65536;
const ALIGN = 16;
/** Below this fraction of the gallery, `only` candidates are scored one by one instead of scanning every row. */
const SPARSE_FILTER_FRACTION = 0.25;
/**
 * Top-k works through the scores in chunks, each pre-filtered by the kernel against the current
 * k-th best score; chunks start small (the threshold is weak at first) and double up to this.
 */
const FIRST_CHUNK = 64;
const MAX_CHUNK = 8192;

const align = (bytes: number): number => Math.ceil(bytes / ALIGN) * ALIGN;

/**
 * In-memory 1:N gallery of unit-length biometric templates with an exact top-k cosine search.
 *
 * Every row lives in one `WebAssembly.Memory`, laid out as
 * `[probe][candidates][rows: capacity x stride][scales: capacity x f32][scores: capacity x f32]`,
 * so a search copies only the probe in and scans all rows with a SIMD kernel (see simd-kernel.ts),
 * then picks the top k with a size-k heap, fed only the rows the kernel finds above the current
 * k-th best score. Rows never move when the store grows (only the scale and score
 * arrays behind them do), and removal swaps the last row into the hole so it stays O(1).
 *
 * int8 rows use a symmetric per-row scale (largest magnitude maps to 127), as the int8 template
 * format does; scores are dequantised, so they are comparable with float32 scores to about ±0.01.
 *
 * Each gallery owns a `WebAssembly.Memory`, for which V8 reserves several GB of address space (not
 * RAM): fine for one gallery per algorithm or cache, not for many thousands of tiny ones.
 *
 * @example
 * const gallery = new VectorGallery(128);
 * gallery.add('subject-1', template.vector);
 * const [best] = gallery.search(probe.vector, 1); // { id: 'subject-1', score: 0.83 }
 */
export class VectorGallery {
  /** Length of every stored and probe vector. */
  readonly dimensions: number;
  /** How the rows are stored. */
  readonly quantisation: GalleryQuantisation;

  readonly #stride: number;
  readonly #probeOffset = 0;
  readonly #candidatesOffset: number;
  readonly #rowsOffset: number;
  readonly #memory: WebAssembly.Memory;
  readonly #kernel: MatchKernel;
  #capacity = 0;
  #count = 0;
  #scalesOffset = 0;
  #scoresOffset = 0;
  readonly #ids: string[] = [];
  readonly #rowOf = new Map<string, number>();
  // Views over the memory; rebuilt whenever it grows (growing detaches the old buffer).
  #u8 = new Uint8Array(0);
  #i8 = new Int8Array(0);
  #i16 = new Int16Array(0);
  #f32 = new Float32Array(0);
  #i32 = new Int32Array(0);

  /**
   * @param dimensions length of every vector (e.g. 128 for F500 face templates)
   * @param quantisation row storage, `'int8'` by default
   * @example
   * const faces = new VectorGallery(128);             // int8 rows, 128 bytes each
   * const exact = new VectorGallery(512, 'float32');  // float32 rows, 2 KB each
   */
  constructor(dimensions: number, quantisation: GalleryQuantisation = 'int8') {
    if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 65535) {
      throw new RangeError(`a gallery has 1 to 65535 dimensions (got ${dimensions})`);
    }
    if (quantisation !== 'int8' && quantisation !== 'float32')
      throw new RangeError(`unknown quantisation '${String(quantisation)}'`);
    this.dimensions = dimensions;
    this.quantisation = quantisation;
    this.#stride = rowBytes(quantisation, dimensions);
    this.#candidatesOffset = align(probeBytes(quantisation, dimensions));
    this.#rowsOffset = this.#candidatesOffset + MAX_CHUNK * 4;
    this.#memory = new WebAssembly.Memory({ initial: 1 });
    this.#kernel = createKernel(this.#memory, quantisation, dimensions);
    this.#reserve(INITIAL_CAPACITY);
  }

  /**
   * Number of enrolled vectors.
   *
   * @example
   * gallery.size; // 0 for a new gallery
   */
  get size(): number {
    return this.#count;
  }

  /**
   * Rows allocated; grows by doubling, never shrinks (a WebAssembly memory cannot).
   *
   * @example
   * new VectorGallery(128).capacity; // 256
   */
  get capacity(): number {
    return this.#capacity;
  }

  /**
   * Whether the scan runs on the WebAssembly SIMD kernel (true on Node 20) or the JS fallback.
   *
   * @example
   * new VectorGallery(128).simd; // true
   */
  get simd(): boolean {
    return this.#kernel.simd;
  }

  /**
   * Whether an id is enrolled.
   *
   * @example
   * gallery.has('subject-1'); // true once added
   */
  has(id: string): boolean {
    return this.#rowOf.has(id);
  }

  /**
   * The enrolled ids in row order: insertion order, except that a removal moves the last id into
   * the removed one's place.
   *
   * @example
   * gallery.ids(); // ['a', 'b', 'c']; after remove('a'): ['c', 'b']
   */
  ids(): string[] {
    return this.#ids.slice();
  }

  /**
   * Enrols a vector (expected unit length, so scores are cosines).
   *
   * @throws {RangeError} if the id is already enrolled, the length differs from `dimensions`, or a
   *   value is not finite
   * @example
   * gallery.add('subject-1', template.vector);
   */
  add(id: string, vector: Float32Array): void {
    if (this.#rowOf.has(id)) throw new RangeError(`id '${id}' is already in the gallery`);
    this.#checkVector(vector, 'vector');
    if (this.#count === this.#capacity) this.#reserve(this.#capacity * 2);
    const row = this.#count;
    this.#writeRow(row, vector);
    this.#ids.push(id);
    this.#rowOf.set(id, row);
    this.#count += 1;
  }

  /**
   * Enrols the vector, or overwrites the one already stored under `id` (keeping its row).
   *
   * @throws {RangeError} as {@link add}, except for an existing id
   * @example
   * gallery.replace('subject-1', reenrolled.vector);
   */
  replace(id: string, vector: Float32Array): void {
    const row = this.#rowOf.get(id);
    if (row === undefined) {
      this.add(id, vector);
      return;
    }
    this.#checkVector(vector, 'vector');
    this.#writeRow(row, vector);
  }

  /**
   * Removes an id in O(1) by moving the last row into its place.
   *
   * @returns whether the id was enrolled
   * @example
   * gallery.remove('subject-1'); // true, then false
   */
  remove(id: string): boolean {
    const row = this.#rowOf.get(id);
    if (row === undefined) return false;
    const last = this.#count - 1;
    if (row !== last) {
      const from = this.#rowsOffset + last * this.#stride;
      this.#u8.copyWithin(this.#rowsOffset + row * this.#stride, from, from + this.#stride);
      const scales = this.#scalesOffset / 4;
      this.#f32[scales + row] = this.#f32[scales + last] ?? 0;
      const moved = this.#ids[last] ?? '';
      this.#ids[row] = moved;
      this.#rowOf.set(moved, row);
    }
    this.#ids.pop();
    this.#rowOf.delete(id);
    this.#count = last;
    return true;
  }

  /**
   * Removes every vector; the memory is kept for reuse.
   *
   * @example
   * gallery.clear(); // gallery.size === 0
   */
  clear(): void {
    this.#ids.length = 0;
    this.#rowOf.clear();
    this.#count = 0;
  }

  /**
   * Cosine score of the probe against one enrolled vector (dequantised for int8).
   *
   * @returns undefined if the id is not enrolled
   * @throws {RangeError} if the probe's length differs from `dimensions`
   * @example
   * gallery.score(probe.vector, 'subject-1'); // 0.83
   */
  score(probe: Float32Array, id: string): number | undefined {
    this.#checkVector(probe, 'probe');
    const row = this.#rowOf.get(id);
    if (row === undefined) return undefined;
    this.#scanRows(this.#loadProbe(probe), row, 1);
    return this.#f32[this.#scoresOffset / 4 + row];
  }

  /**
   * Exact top-k search: the k enrolled vectors with the highest cosine score, best first (ties in
   * row order). `only` restricts the search to those ids (unknown ones are ignored).
   *
   * @throws {RangeError} if the probe's length differs from `dimensions` or k is not an integer >= 0
   * @example
   * gallery.search(probe.vector, 10);                          // top 10 of the whole gallery
   * gallery.search(probe.vector, 1, new Set(['a', 'b', 'c'])); // best of a watch list
   */
  search(probe: Float32Array, k: number, only?: ReadonlySet<string>): GalleryHit[] {
    this.#checkVector(probe, 'probe');
    if (!Number.isInteger(k) || k < 0) throw new RangeError(`k must be an integer >= 0 (got ${k})`);
    if (k === 0 || this.#count === 0) return [];
    const probeScale = this.#loadProbe(probe);
    let candidates: Int32Array | undefined;
    if (only !== undefined) {
      candidates = new Int32Array(only.size);
      let n = 0;
      for (const id of only) {
        const row = this.#rowOf.get(id);
        if (row !== undefined) candidates[n++] = row;
      }
      if (n === 0) return [];
      candidates = candidates.subarray(0, n);
      if (n < this.#count * SPARSE_FILTER_FRACTION) {
        // A short watch list: score just those rows rather than the whole gallery.
        for (const row of candidates) this.#scanRows(probeScale, row, 1);
      } else {
        this.#scanRows(probeScale, 0, this.#count);
      }
    } else {
      this.#scanRows(probeScale, 0, this.#count);
    }
    return this.#topK(k, candidates);
  }

  #checkVector(vector: Float32Array, what: string): void {
    if (vector.length !== this.dimensions) {
      throw new RangeError(`${what} has ${vector.length} dimensions, the gallery ${this.dimensions}`);
    }
    for (let d = 0; d < vector.length; d += 1) {
      if (!Number.isFinite(vector[d])) throw new RangeError(`${what} holds a non-finite value at dimension ${d}`);
    }
  }

  /** Grows the storage to `capacity` rows, moving the scales behind the (unmoved) rows. */
  #reserve(capacity: number): void {
    const scalesOffset = this.#rowsOffset + capacity * this.#stride;
    const scoresOffset = scalesOffset + capacity * 4;
    const needed = scoresOffset + capacity * 4;
    const have = this.#memory.buffer.byteLength;
    if (needed > have) this.#memory.grow(Math.ceil((needed - have) / PAGE_BYTES));
    const buffer = this.#memory.buffer;
    this.#u8 = new Uint8Array(buffer);
    this.#i8 = new Int8Array(buffer);
    this.#i16 = new Int16Array(buffer);
    this.#f32 = new Float32Array(buffer);
    this.#i32 = new Int32Array(buffer);
    if (this.#count > 0) this.#u8.copyWithin(scalesOffset, this.#scalesOffset, this.#scalesOffset + this.#count * 4);
    this.#capacity = capacity;
    this.#scalesOffset = scalesOffset;
    this.#scoresOffset = scoresOffset;
  }

  #writeRow(row: number, vector: Float32Array): void {
    const offset = this.#rowsOffset + row * this.#stride;
    const dims = this.dimensions;
    if (this.quantisation === 'int8') {
      const scale = quantisationScale(vector);
      for (let d = 0; d < dims; d += 1) this.#i8[offset + d] = quantise(vector[d] ?? 0, scale);
      this.#i8.fill(0, offset + dims, offset + this.#stride); // padding must be zero for the kernel
      this.#f32[this.#scalesOffset / 4 + row] = scale;
    } else {
      this.#f32.set(vector, offset / 4);
      this.#f32.fill(0, offset / 4 + dims, (offset + this.#stride) / 4);
    }
  }

  /** Writes the probe where the kernel reads it; returns its int8 scale (1 for float32). */
  #loadProbe(probe: Float32Array): number {
    const dims = this.dimensions;
    if (this.quantisation === 'int8') {
      // Quantised like a row, but stored as int16 so the kernel can feed it straight to pmaddwd.
      const scale = quantisationScale(probe);
      const base = this.#probeOffset / 2;
      for (let d = 0; d < dims; d += 1) this.#i16[base + d] = quantise(probe[d] ?? 0, scale);
      this.#i16.fill(0, base + dims, base + this.#stride);
      return scale;
    }
    const base = this.#probeOffset / 4;
    this.#f32.set(probe, base);
    this.#f32.fill(0, base + dims, base + this.#stride / 4);
    return 1;
  }

  /** Scores rows [first, first + count) into the score array. */
  #scanRows(probeScale: number, first: number, count: number): void {
    this.#kernel.scan(
      this.#rowsOffset + first * this.#stride,
      count,
      this.#probeOffset,
      this.#scalesOffset + first * 4,
      this.#scoresOffset + first * 4,
      probeScale,
    );
  }

  /** Partial selection: a size-k min-heap over the scores (of `rows`, or of every row). */
  #topK(k: number, rows: Int32Array | undefined): GalleryHit[] {
    const base = this.#scoresOffset / 4;
    const scores = this.#f32.subarray(base, base + this.#count);
    const best = rows === undefined ? this.#selectAll(scores, k) : selectTopKOf(scores, rows, k);
    return best.map(([score, row]) => ({ id: this.#ids[row] ?? '', score }));
  }

  /**
   * Top k of every row. The heap starts with the first k rows; after that the kernel's `above`
   * returns just the rows of each chunk that beat the heap's weakest score (a few per chunk once
   * the heap has warmed up), so JS never walks the whole score array.
   */
  #selectAll(scores: Float32Array, k: number): Array<[number, number]> {
    const n = scores.length;
    const heap = new TopK(Math.min(k, n));
    for (let row = 0; row < heap.capacity; row += 1) heap.offer(scores[row] ?? 0, row);
    const candidates = this.#i32;
    const candidateBase = this.#candidatesOffset / 4;
    let chunk = FIRST_CHUNK;
    for (let start = heap.capacity; start < n; start += chunk, chunk = Math.min(chunk * 2, MAX_CHUNK)) {
      const length = Math.min(chunk, n - start);
      const hits = this.#kernel.above(this.#scoresOffset + start * 4, length, heap.weakest, this.#candidatesOffset);
      for (let j = 0; j < hits; j += 1) {
        const row = start + (candidates[candidateBase + j] ?? 0);
        heap.offer(scores[row] ?? 0, row);
      }
    }
    return heap.drain();
  }
}

/**
 * Symmetric int8 scale of a gallery row: the largest magnitude maps to 127 (1 for an all-zero vector); a value
 * is stored as {@link quantise}(value, scale) and read back as that times the scale.
 *
 * @example
 * const scale = quantisationScale(vector);
 * const stored = Int8Array.from(vector, (v) => quantise(v, scale));
 */
export function quantisationScale(vector: Float32Array): number {
  let maxAbs = 0;
  for (let d = 0; d < vector.length; d += 1) maxAbs = Math.max(maxAbs, Math.abs(vector[d] ?? 0));
  return Math.fround(maxAbs === 0 ? 1 : maxAbs / 127);
}

/**
 * One value as a gallery stores it under an int8 row's scale: rounded, clamped to ±127.
 *
 * @example
 * quantise(0.5, quantisationScale(Float32Array.of(1, 0.5))); // 64
 */
export function quantise(value: number, scale: number): number {
  return Math.max(-127, Math.min(127, Math.round(value / scale)));
}

/** As the search's selection, over the listed rows only (in any order). */
function selectTopKOf(scores: Float32Array, rows: Int32Array, k: number): Array<[number, number]> {
  const heap = new TopK(Math.min(k, rows.length));
  for (const row of rows) heap.offer(scores[row] ?? 0, row);
  return heap.drain();
}

/**
 * Fixed-capacity min-heap of (score, row) keeping the best `capacity` offered: the root is the
 * weakest kept entry (lowest score; among equal scores, the later row, so earlier rows win ties).
 */
class TopK {
  readonly capacity: number;
  readonly #scores: Float64Array;
  readonly #rows: Int32Array;
  #size = 0;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.#scores = new Float64Array(capacity);
    this.#rows = new Int32Array(capacity);
  }

  /** The score an offer must beat once the heap is full (-Infinity before). */
  get weakest(): number {
    return this.#size < this.capacity ? -Infinity : (this.#scores[0] ?? -Infinity);
  }

  offer(score: number, row: number): void {
    if (this.#size < this.capacity) {
      this.#siftUp(this.#size++, score, row);
    } else if (this.capacity > 0 && worse(this.#scores[0] ?? 0, this.#rows[0] ?? 0, score, row)) {
      this.#siftDown(score, row);
    }
  }

  /** The kept entries as [score, row], best first (ties by row). */
  drain(): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    for (let i = 0; i < this.#size; i += 1) out.push([this.#scores[i] ?? 0, this.#rows[i] ?? 0]);
    return out.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  }

  #siftUp(index: number, score: number, row: number): void {
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const ps = this.#scores[parent] ?? 0;
      const pr = this.#rows[parent] ?? 0;
      if (!worse(score, row, ps, pr)) break;
      this.#scores[i] = ps;
      this.#rows[i] = pr;
      i = parent;
    }
    this.#scores[i] = score;
    this.#rows[i] = row;
  }

  /** Replaces the root and restores the heap order. */
  #siftDown(score: number, row: number): void {
    const n = this.#size;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      const right = child + 1;
      if (
        right < n &&
        worse(this.#scores[right] ?? 0, this.#rows[right] ?? 0, this.#scores[child] ?? 0, this.#rows[child] ?? 0)
      )
        child = right;
      const cs = this.#scores[child] ?? 0;
      const cr = this.#rows[child] ?? 0;
      if (!worse(cs, cr, score, row)) break;
      this.#scores[i] = cs;
      this.#rows[i] = cr;
      i = child;
    }
    this.#scores[i] = score;
    this.#rows[i] = row;
  }
}

/** Heap order: whether (scoreA, rowA) ranks below (scoreB, rowB). */
function worse(scoreA: number, rowA: number, scoreB: number, rowB: number): boolean {
  return scoreA < scoreB || (scoreA === scoreB && rowA > rowB);
}

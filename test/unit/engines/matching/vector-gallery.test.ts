import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createKernel, probeBytes, rowBytes } from '../../../../src/engines/matching/simd-kernel.js';
import { VectorGallery } from '../../../../src/engines/matching/vector-gallery.js';
import { seededRandom } from '../../../../src/lib/seeded-random.js';

function normalise(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  return v.map((x) => x / norm);
}

function unitVector(random: () => number, dims: number): Float32Array {
  return normalise(Float32Array.from({ length: dims }, () => random() * 2 - 1));
}

/** A unit vector close to `base` (cosine around 0.9). */
function nearby(random: () => number, base: Float32Array): Float32Array {
  const noise = unitVector(random, base.length);
  return normalise(base.map((x, i) => x + 0.45 * (noise[i] ?? 0)));
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += (a[i] ?? 0) * (b[i] ?? 0);
  return sum;
}

const quantised = new WeakMap<Float32Array, { q: Int8Array; scale: number }>();

/** The gallery's int8 quantisation, written out independently: symmetric, largest magnitude to 127. */
function quantise(v: Float32Array): { q: Int8Array; scale: number } {
  let result = quantised.get(v);
  if (result === undefined) {
    const maxAbs = v.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
    const scale = Math.fround(maxAbs === 0 ? 1 : maxAbs / 127);
    result = { q: Int8Array.from(v, (x) => Math.max(-127, Math.min(127, Math.round(x / scale)))), scale };
    quantised.set(v, result);
  }
  return result;
}

/** Expected int8 score: exact integer dot, then the same float32 rounding steps as the kernel. */
function int8Score(row: Float32Array, probe: Float32Array): number {
  const r = quantise(row);
  const p = quantise(probe);
  let integer = 0;
  for (let i = 0; i < row.length; i += 1) integer += (r.q[i] ?? 0) * (p.q[i] ?? 0);
  return Math.fround(Math.fround(Math.fround(integer) * r.scale) * p.scale);
}

function filled(
  dims: number,
  count: number,
  seed: number,
  quantisation: 'int8' | 'float32' = 'int8',
): { gallery: VectorGallery; vectors: Map<string, Float32Array> } {
  const random = seededRandom(seed);
  const gallery = new VectorGallery(dims, quantisation);
  const vectors = new Map<string, Float32Array>();
  for (let i = 0; i < count; i += 1) {
    const v = unitVector(random, dims);
    gallery.add(`s${i}`, v);
    vectors.set(`s${i}`, v);
  }
  return { gallery, vectors };
}

describe('VectorGallery', () => {
  it('adds, finds and removes by swapping the last row into the hole', () => {
    const { gallery, vectors } = filled(128, 5, 1);
    const probe = unitVector(seededRandom(99), 128);
    const before = gallery.score(probe, 's4');
    assert.equal(gallery.size, 5);
    assert.equal(gallery.simd, true);
    assert.ok(gallery.has('s2'));
    assert.deepEqual(gallery.ids(), ['s0', 's1', 's2', 's3', 's4']);

    assert.equal(gallery.remove('s1'), true);
    assert.equal(gallery.remove('s1'), false);
    assert.equal(gallery.remove('nobody'), false);
    assert.equal(gallery.size, 4);
    assert.equal(gallery.has('s1'), false);
    assert.deepEqual(gallery.ids(), ['s0', 's4', 's2', 's3']);
    // The moved row keeps its vector and scale.
    assert.equal(gallery.score(probe, 's4'), before);
    assert.equal(gallery.score(probe, 's1'), undefined);
    assert.equal(gallery.score(probe, 's4'), int8Score(vectors.get('s4') ?? probe, probe));

    assert.equal(gallery.remove('s3'), true); // the last row: nothing to move
    assert.deepEqual(gallery.ids(), ['s0', 's4', 's2']);
    assert.deepEqual(
      gallery
        .search(probe, 10)
        .map((h) => h.id)
        .sort(),
      ['s0', 's2', 's4'],
    );

    gallery.clear();
    assert.equal(gallery.size, 0);
    assert.deepEqual(gallery.ids(), []);
    assert.deepEqual(gallery.search(probe, 3), []);
    gallery.add('s0', unitVector(seededRandom(5), 128)); // usable again after clear
    assert.equal(gallery.search(probe, 3).length, 1);
  });

  it('replace overwrites in place, or adds', () => {
    const random = seededRandom(2);
    const gallery = new VectorGallery(64);
    const a = unitVector(random, 64);
    const b = unitVector(random, 64);
    gallery.add('x', a);
    gallery.add('y', b);
    gallery.replace('x', b);
    assert.equal(gallery.size, 2);
    assert.deepEqual(gallery.ids(), ['x', 'y']);
    assert.equal(gallery.score(b, 'x'), gallery.score(b, 'y'));
    assert.ok(Math.abs((gallery.score(b, 'x') ?? 0) - 1) < 0.02);
    gallery.replace('z', a);
    assert.deepEqual(gallery.ids(), ['x', 'y', 'z']);
  });

  it('rejects duplicate ids, wrong dimensions, non-finite values and bad k', () => {
    const random = seededRandom(3);
    const gallery = new VectorGallery(128);
    gallery.add('a', unitVector(random, 128));
    assert.throws(() => gallery.add('a', unitVector(random, 128)), RangeError);
    assert.throws(() => gallery.add('b', unitVector(random, 127)), RangeError);
    assert.throws(() => gallery.replace('a', unitVector(random, 129)), RangeError);
    assert.throws(() => gallery.add('c', new Float32Array(128).fill(Number.NaN)), RangeError);
    assert.throws(() => gallery.search(unitVector(random, 64), 1), RangeError);
    assert.throws(() => gallery.score(unitVector(random, 64), 'a'), RangeError);
    assert.throws(() => gallery.search(unitVector(random, 128), -1), RangeError);
    assert.throws(() => gallery.search(unitVector(random, 128), 1.5), RangeError);
    assert.throws(() => new VectorGallery(0), RangeError);
    assert.equal(gallery.size, 1);
  });

  it('returns [] for an empty gallery or k = 0', () => {
    const probe = unitVector(seededRandom(4), 128);
    assert.deepEqual(new VectorGallery(128).search(probe, 5), []);
    assert.deepEqual(new VectorGallery(128, 'float32').search(probe, 5), []);
    assert.deepEqual(filled(128, 10, 4).gallery.search(probe, 0), []);
  });

  it('search returns the k best, best first, matching a brute-force ranking', () => {
    const { gallery, vectors } = filled(128, 600, 5);
    const random = seededRandom(55);
    for (const k of [1, 10, 37]) {
      const probe = unitVector(random, 128);
      const hits = gallery.search(probe, k);
      assert.equal(hits.length, k);
      const expected = [...vectors]
        .map(([id, v]) => ({ id, score: int8Score(v, probe) }))
        .sort((x, y) => y.score - x.score);
      assert.deepEqual(
        hits.map((h) => h.score),
        expected.slice(0, k).map((e) => e.score),
      );
      for (let i = 1; i < hits.length; i += 1) assert.ok((hits[i - 1]?.score ?? 0) >= (hits[i]?.score ?? 0));
    }
    assert.equal(gallery.search(unitVector(random, 128), 5000).length, 600); // k beyond size
  });

  it('finds a planted match in int8 and float32 alike, with agreeing scores', () => {
    const random = seededRandom(6);
    const int8 = new VectorGallery(128, 'int8');
    const float = new VectorGallery(128, 'float32');
    const vectors: Float32Array[] = [];
    for (let i = 0; i < 600; i += 1) {
      const v = unitVector(random, 128);
      vectors.push(v);
      int8.add(`s${i}`, v);
      float.add(`s${i}`, v);
    }
    const target = vectors[321] ?? new Float32Array(128);
    const probe = nearby(random, target);
    assert.equal(int8.search(probe, 1)[0]?.id, 's321');
    assert.equal(float.search(probe, 1)[0]?.id, 's321');
    vectors.forEach((v, i) => {
      const exact = dot(v, probe);
      assert.ok(Math.abs((float.score(probe, `s${i}`) ?? 0) - exact) < 1e-5, `float32 s${i}`);
      assert.ok(Math.abs((int8.score(probe, `s${i}`) ?? 0) - exact) < 0.02, `int8 s${i}`);
    });
    assert.deepEqual(
      float.search(probe, 5).map((h) => h.id),
      [...vectors.keys()]
        .sort((a, b) => dot(vectors[b] ?? probe, probe) - dot(vectors[a] ?? probe, probe))
        .slice(0, 5)
        .map((i) => `s${i}`),
    );
  });

  it('breaks ties by row order', () => {
    const v = unitVector(seededRandom(7), 32);
    const gallery = new VectorGallery(32);
    for (const id of ['a', 'b', 'c', 'd', 'e']) gallery.add(id, v);
    assert.deepEqual(
      gallery.search(v, 3).map((h) => h.id),
      ['a', 'b', 'c'],
    );
    assert.deepEqual(
      gallery.search(v, 2, new Set(['e', 'c', 'd'])).map((h) => h.id),
      ['c', 'd'],
    );
  });

  it('restricts the search to `only`, on both the sparse and the full-scan path', () => {
    const { gallery } = filled(128, 400, 8);
    const probe = unitVector(seededRandom(88), 128);
    const all = gallery.search(probe, 400);
    const rank = (ids: Set<string>, k: number) => all.filter((h) => ids.has(h.id)).slice(0, k);
    const sparse = new Set(['s3', 's77', 's150', 'unknown']);
    assert.deepEqual(gallery.search(probe, 2, sparse), rank(sparse, 2));
    const dense = new Set(Array.from({ length: 300 }, (_, i) => `s${i}`));
    assert.deepEqual(gallery.search(probe, 10, dense), rank(dense, 10));
    assert.deepEqual(gallery.search(probe, 5, new Set()), []);
    assert.deepEqual(gallery.search(probe, 5, new Set(['nobody'])), []);
  });

  it('grows past its initial capacity without disturbing stored rows', () => {
    const random = seededRandom(9);
    const gallery = new VectorGallery(100, 'int8'); // 100 dims: rows padded to 112 bytes
    const initial = gallery.capacity;
    const first = unitVector(random, 100);
    const probe = unitVector(random, 100);
    gallery.add('first', first);
    const before = gallery.score(probe, 'first');
    const vectors = [first];
    for (let i = 1; i < initial * 3 + 5; i += 1) {
      const v = unitVector(random, 100);
      vectors.push(v);
      gallery.add(`s${i}`, v);
    }
    assert.ok(gallery.capacity >= initial * 4);
    assert.equal(gallery.size, initial * 3 + 5);
    assert.equal(gallery.score(probe, 'first'), before);
    assert.equal(gallery.score(probe, 'first'), int8Score(first, probe));
    const planted = nearby(random, vectors[initial * 2] ?? probe);
    assert.equal(gallery.search(planted, 1)[0]?.id, `s${initial * 2}`);
  });
});

describe('SIMD kernel', () => {
  // Odd shapes on purpose: padding inside the last block, a row count that is not a multiple of 4,
  // and rows long enough (600 int8 = 38 blocks, 200 float32 = 50 blocks) for the looped code path.
  // Both ways of widening the int8 rows (load8x8_s, the default, and load + extend).
  for (const [dims, widenOnLoad] of [7, 100, 128, 600].flatMap(
    (d) =>
      [
        [d, true],
        [d, false],
      ] as const,
  )) {
    it(`int8 x ${dims}${widenOnLoad ? '' : ' (extend after load)'}: integer dots equal a JS reference exactly, scores equal the JS kernel`, () => {
      const random = seededRandom(dims);
      const count = 53;
      const stride = rowBytes('int8', dims);
      const probeAt = 0;
      const rowsAt = 4096 + probeBytes('int8', dims);
      const scalesAt = rowsAt + count * stride;
      const outAt = scalesAt + count * 4;
      const memory = new WebAssembly.Memory({ initial: Math.ceil((outAt + count * 4) / 65536) + 1 });
      const i8 = new Int8Array(memory.buffer);
      const i16 = new Int16Array(memory.buffer);
      const f32 = new Float32Array(memory.buffer);
      // Full-range values, including the ±127 extremes.
      for (let r = 0; r < count; r += 1) {
        for (let d = 0; d < dims; d += 1)
          i8[rowsAt + r * stride + d] = r % 10 === 0 ? (d % 2 ? 127 : -127) : Math.floor(random() * 255) - 127;
        f32[scalesAt / 4 + r] = Math.fround(random() * 0.01);
      }
      for (let d = 0; d < dims; d += 1) i16[probeAt / 2 + d] = d % 3 === 0 ? -127 : Math.floor(random() * 255) - 127;

      const simd = createKernel(memory, 'int8', dims, { tuning: { widenOnLoad } });
      const js = createKernel(memory, 'int8', dims, { simd: false });
      assert.equal(simd.simd, true);
      simd.dots(rowsAt, count, probeAt, outAt);
      const got = new Int32Array(memory.buffer, outAt, count).slice();
      for (let r = 0; r < count; r += 1) {
        let expected = 0;
        for (let d = 0; d < dims; d += 1) expected += (i8[rowsAt + r * stride + d] ?? 0) * (i16[probeAt / 2 + d] ?? 0);
        assert.equal(got[r], expected, `row ${r}`);
      }
      simd.scan(rowsAt, count, probeAt, scalesAt, outAt, 0.0123);
      const simdScores = new Float32Array(memory.buffer, outAt, count).slice();
      js.scan(rowsAt, count, probeAt, scalesAt, outAt, 0.0123);
      assert.deepEqual(simdScores, new Float32Array(memory.buffer, outAt, count).slice());
      // A sub-range that starts mid-array and takes the single-row path.
      simd.scan(rowsAt + 5 * stride, 3, probeAt, scalesAt + 20, outAt, 0.0123);
      assert.deepEqual(new Float32Array(memory.buffer, outAt, 3).slice(), simdScores.slice(5, 8));
    });
  }

  for (const dims of [5, 128, 200, 512]) {
    it(`float32 x ${dims}: scores equal a float64 dot within float32 rounding`, () => {
      const random = seededRandom(1000 + dims);
      const count = 41;
      const stride = rowBytes('float32', dims);
      const rowsAt = probeBytes('float32', dims) + 64;
      const outAt = rowsAt + count * stride;
      const memory = new WebAssembly.Memory({ initial: Math.ceil((outAt + count * 4) / 65536) + 1 });
      const f32 = new Float32Array(memory.buffer);
      const rows = Array.from({ length: count }, () => unitVector(random, dims));
      const probe = unitVector(random, dims);
      rows.forEach((v, r) => f32.set(v, (rowsAt + r * stride) / 4));
      f32.set(probe, 0);
      for (const simd of [true, false]) {
        createKernel(memory, 'float32', dims, { simd }).scan(rowsAt, count, 0, 0, outAt, 1);
        const got = new Float32Array(memory.buffer, outAt, count);
        rows.forEach((v, r) => assert.ok(Math.abs((got[r] ?? 0) - dot(v, probe)) < 1e-6, `simd ${simd}, row ${r}`));
      }
    });
  }

  it('above() lists exactly the scores over the threshold, like the JS kernel', () => {
    const memory = new WebAssembly.Memory({ initial: 1 });
    const random = seededRandom(11);
    const f32 = new Float32Array(memory.buffer);
    const count = 1003;
    for (let i = 0; i < count; i += 1) f32[i] = random() * 2 - 1;
    f32[500] = 0.75; // equal to the threshold: not above it
    const simd = createKernel(memory, 'float32', 16);
    const js = createKernel(memory, 'float32', 16, { simd: false });
    const outAt = 8192;
    for (const threshold of [0.75, 0.999, -2, 2]) {
      const n = simd.above(0, count, threshold, outAt);
      const got = Array.from(new Int32Array(memory.buffer, outAt, n));
      const expected = Array.from({ length: count }, (_, i) => i).filter((i) => (f32[i] ?? 0) > Math.fround(threshold));
      assert.deepEqual(got, expected);
      assert.equal(js.above(0, count, threshold, outAt + 8192), n);
      assert.deepEqual(Array.from(new Int32Array(memory.buffer, outAt + 8192, n)), expected);
    }
  });
});

/**
 * Band-limited resampling between any two rates: a Kaiser-windowed sinc kernel, tabulated finely and
 * interpolated linearly between table points, so any ratio (44 100 → 16 000, 22 050 → 16 000, even 11 025.5)
 * takes the same path. Going down, the cutoff sits below the output's Nyquist frequency so that what lies
 * above it does not fold back into the speech band (aliasing); going up, below the input's. At equal rates the
 * same low-pass still runs, so every sample the engine analyses has one band (0-7.36 kHz at 16 kHz) whatever
 * rate it arrived at.
 */

/** Kernel zero crossings on each side of the centre: sets the transition width (~1.2 kHz at a 16 kHz output). */
const ZERO_CROSSINGS = 32;
/** Cutoff as a share of the lower Nyquist frequency: 7.36 kHz for a 16 kHz output. */
const ROLLOFF = 0.92;
/** Kaiser window shape: about 80 dB of stopband attenuation. */
const KAISER_BETA = 8;
/** Table points per zero crossing; linear interpolation between them errs by under 1e-5 (below -100 dB). */
const TABLE_STEPS = 512;

/** Zeroth-order modified Bessel function of the first kind (power series; converges fast for beta <= 20). */
function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 50; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
    if (term < sum * 1e-16) break;
  }
  return sum;
}

let kernelTable: Float64Array | undefined;

/** The kernel sinc(x)·kaiser(x) at x = i / TABLE_STEPS, for x in [0, ZERO_CROSSINGS], plus one guard point. */
function kernel(): Float64Array {
  if (kernelTable) return kernelTable;
  const size = ZERO_CROSSINGS * TABLE_STEPS + 2;
  const table = new Float64Array(size);
  const norm = besselI0(KAISER_BETA);
  for (let i = 0; i < size; i++) {
    const x = i / TABLE_STEPS;
    const ratio = x / ZERO_CROSSINGS;
    const window = ratio >= 1 ? 0 : besselI0(KAISER_BETA * Math.sqrt(1 - ratio * ratio)) / norm;
    const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
    table[i] = sinc * window;
  }
  kernelTable = table;
  return table;
}

/** The kernel's weight at `distance` input samples from the output instant, for a kernel scaled by `scale`. */
function weight(table: Float64Array, distance: number, scale: number): number {
  const position = Math.abs(distance) * scale * TABLE_STEPS;
  const index = Math.floor(position);
  const a = table[index] ?? 0;
  const b = table[index + 1] ?? 0;
  return (a + (b - a) * (position - index)) * scale;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Coefficient tables per output phase above this many values are not built (odd rates such as 44 101 Hz). */
const MAX_PHASE_TABLE = 1 << 20;

/**
 * Resamples mono samples from one rate to another with an anti-aliasing low-pass (passband flat to ~6.7 kHz
 * and stopband from 8 kHz at a 16 kHz output, ~80 dB down). Always returns a new array.
 * The output has round(length · to / from) samples, aligned on the first input sample. Integer rates with a
 * small ratio (every common one: 48 000 → 16 000 has 1 phase, 44 100 → 16 000 has 160) use a precomputed
 * coefficient set per output phase; other ratios compute each weight from the kernel table.
 *
 * At equal rates the signal is low-passed all the same (a 16 kHz input loses what lies above ~7.4 kHz, as one
 * recorded at 48 kHz does on its way down): the spoof classifier's voice-activity members read up to 8 kHz, and were
 * trained on recordings that came through this filter (docs/voice.md, "One band for every source").
 *
 * @example
 * const at16k = resample(samples44k, 44_100, 16_000);
 * const banded = resample(samples16k, 16_000, 16_000); // same length, low-passed at 7.36 kHz
 */
export function resample(samples: Float32Array, fromRate: number, toRate: number): Float32Array {
  if (!(fromRate > 0 && toRate > 0)) throw new RangeError(`invalid rates ${fromRate} -> ${toRate}`);
  const table = kernel();
  const outputLength = Math.round((samples.length * toRate) / fromRate);
  const out = new Float32Array(outputLength);
  // scale < 1 when going down: the kernel stretches over more input samples and its cutoff drops.
  const scale = Math.min(1, toRate / fromRate) * ROLLOFF;
  const reach = Math.ceil(ZERO_CROSSINGS / scale);
  const taps = 2 * reach;
  const last = samples.length - 1;
  const integral = Number.isInteger(fromRate) && Number.isInteger(toRate);
  const divisor = integral ? gcd(fromRate, toRate) : 1;
  const phases = toRate / divisor;
  if (integral && phases * taps <= MAX_PHASE_TABLE) {
    const advance = fromRate / divisor;
    // Output n lies at input position q + p / phases (q = floor(n·advance / phases), p its remainder);
    // tap j reads input q - reach + 1 + j.
    const coefficients = new Float64Array(phases * taps);
    for (let p = 0; p < phases; p++) {
      for (let j = 0; j < taps; j++) coefficients[p * taps + j] = weight(table, j - reach + 1 - p / phases, scale);
    }
    // Output n's taps start at input q(n) - reach + 1 (q(n) = floor(n·advance / phases)); p(n) picks its phase.
    const startOf = (n: number): number => Math.floor((n * advance) / phases) - reach + 1;
    const one = (n: number): void => {
      const start = startOf(n);
      const from = Math.max(0, start);
      const to = Math.min(last, start + taps - 1);
      const base = ((n * advance) % phases) * taps - start;
      let sum = 0;
      for (let i = from; i <= to; i++) sum += (samples[i] ?? 0) * (coefficients[base + i] ?? 0);
      out[n] = sum;
    };
    let n = 0;
    for (; n < outputLength && startOf(n) < 0; n++) one(n);
    // Away from the edges every tap lies inside the input. There, outputs m, m + phases, ..., m + 7·phases
    // share a phase, hence their coefficients: they are summed together, each in its own accumulator in the
    // same tap order as `one` (the same value to the bit), so that the eight chains of additions overlap
    // instead of each waiting on its previous addition (48 kHz stereo to 16 kHz: 24 → 11 ms for 5 s).
    const group = 8 * phases;
    for (; n + group <= outputLength && startOf(n + group - 1) + taps - 1 <= last; n += group) {
      for (let m = n; m < n + phases; m++) {
        const c = ((m * advance) % phases) * taps;
        const s0 = startOf(m);
        const s1 = startOf(m + phases);
        const s2 = startOf(m + 2 * phases);
        const s3 = startOf(m + 3 * phases);
        const s4 = startOf(m + 4 * phases);
        const s5 = startOf(m + 5 * phases);
        const s6 = startOf(m + 6 * phases);
        const s7 = startOf(m + 7 * phases);
        let sum0 = 0;
        let sum1 = 0;
        let sum2 = 0;
        let sum3 = 0;
        let sum4 = 0;
        let sum5 = 0;
        let sum6 = 0;
        let sum7 = 0;
        for (let j = 0; j < taps; j++) {
          const w = coefficients[c + j] ?? 0;
          sum0 += (samples[s0 + j] ?? 0) * w;
          sum1 += (samples[s1 + j] ?? 0) * w;
          sum2 += (samples[s2 + j] ?? 0) * w;
          sum3 += (samples[s3 + j] ?? 0) * w;
          sum4 += (samples[s4 + j] ?? 0) * w;
          sum5 += (samples[s5 + j] ?? 0) * w;
          sum6 += (samples[s6 + j] ?? 0) * w;
          sum7 += (samples[s7 + j] ?? 0) * w;
        }
        out[m] = sum0;
        out[m + phases] = sum1;
        out[m + 2 * phases] = sum2;
        out[m + 3 * phases] = sum3;
        out[m + 4 * phases] = sum4;
        out[m + 5 * phases] = sum5;
        out[m + 6 * phases] = sum6;
        out[m + 7 * phases] = sum7;
      }
    }
    for (; n < outputLength; n++) one(n);
    return out;
  }
  const step = fromRate / toRate;
  for (let n = 0; n < outputLength; n++) {
    const centre = n * step;
    const from = Math.max(0, Math.ceil(centre - reach));
    const to = Math.min(last, Math.floor(centre + reach));
    let sum = 0;
    for (let i = from; i <= to; i++) sum += (samples[i] ?? 0) * weight(table, i - centre, scale);
    out[n] = sum;
  }
  return out;
}

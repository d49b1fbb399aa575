/**
 * Mains hum (replay cue): a loudspeaker's amplifier and a re-recording chain pick up 50 or 60 Hz and its
 * harmonics; speech has almost no energy there (voice fundamentals start near 70 Hz) and a phone
 * microphone on battery picks up none.
 */

/** Offsets (Hz) of the reference frequencies around each hum frequency. */
const NEIGHBOURS_HZ = [-7, -4, 4, 7] as const;

/**
 * Power of a (windowed) signal at one frequency by the Goertzel recurrence: any frequency, not only
 * FFT bins.
 *
 * @example
 * tonePower(hannWindowed(samples), 50, 16_000);
 */
export function tonePower(windowed: Float64Array, frequency: number, sampleRate: number): number {
  const n = windowed.length;
  if (n === 0) return 0;
  const coefficient = 2 * Math.cos((2 * Math.PI * frequency) / sampleRate);
  let s1 = 0;
  let s2 = 0;
  for (let i = 0; i < n; i++) {
    const s0 = (windowed[i] ?? 0) + coefficient * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return (s1 * s1 + s2 * s2 - coefficient * s1 * s2) / (n * n);
}

/**
 * The signal times one Hann window over its whole length (limits leakage from speech harmonics).
 *
 * @example
 * hannWindowed(Float32Array.of(1, 1, 1)); // [0, 1, 0]
 */
export function hannWindowed(samples: Float32Array): Float64Array {
  const n = samples.length;
  const out = new Float64Array(n);
  const step = (2 * Math.PI) / Math.max(n - 1, 1);
  for (let i = 0; i < n; i++) out[i] = (samples[i] ?? 0) * (0.5 - 0.5 * Math.cos(step * i));
  return out;
}

/**
 * Boxcar-averages blocks of `factor` samples: a low-pass whose nulls fall exactly on the frequencies that
 * would alias onto 0 Hz after keeping one sample per block, so the hum band reads cleanly at 1/factor the rate.
 */
function decimate(samples: Float32Array, factor: number): Float32Array {
  const out = new Float32Array(Math.floor(samples.length / factor));
  for (let i = 0; i < out.length; i++) {
    let sum = 0;
    for (let j = 0; j < factor; j++) sum += samples[i * factor + j] ?? 0;
    out[i] = sum / factor;
  }
  return out;
}

/** Analysis at 1 kHz: enough for 50-120 Hz, 16 times fewer samples through the Goertzel passes. */
const DECIMATION = 16;

/**
 * Hum prominence: for 50 and 60 Hz, log10 of the power at the fundamental and its second harmonic over
 * the mean power at the frequencies 4 and 7 Hz either side; the larger of the two mains frequencies.
 * About 0 without hum, 1-5 with audible hum.
 *
 * @example
 * mainsHum(samples, 16_000); // e.g. 0.2 for a clean recording, 2.5 with -40 dB of 50 Hz hum added
 */
export function mainsHum(samples: Float32Array, sampleRate: number): number {
  const windowed = hannWindowed(decimate(samples, DECIMATION));
  const rate = sampleRate / DECIMATION;
  let best = -Infinity;
  for (const mains of [50, 60]) {
    let tone = 0;
    let reference = 0;
    for (const harmonic of [1, 2]) {
      const f = mains * harmonic;
      tone += tonePower(windowed, f, rate);
      for (const offset of NEIGHBOURS_HZ) reference += tonePower(windowed, f + offset, rate) / NEIGHBOURS_HZ.length;
    }
    best = Math.max(best, Math.log10(tone + 1e-20) - Math.log10(reference + 1e-20));
  }
  return best;
}

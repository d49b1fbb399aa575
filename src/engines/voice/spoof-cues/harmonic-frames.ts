/**
 * The harmonics of voiced speech, frame by frame: the DFT of each 32 ms Hann frame (every 10 ms) at exactly
 * k·F0 for k = 1..6, F0 read off a pitch track. What the harmonic cues read: the relative phases of the
 * harmonics (harmonic-phase.ts) and the level of the fundamental against the next harmonics
 * (fundamental-level.ts).
 */

/** Harmonics analysed per frame: k = 1..HARMONICS. */
export const HARMONICS = 6;
/** The top harmonic stays below this (Hz at 16 kHz): a frame whose F0 puts it higher is skipped. */
const TOP_HZ = 7000;
const RATE = 16_000;
/**
 * 32 ms frames every 10 ms: consecutive frames share 70% of their samples, so that a human glottal cycle's
 * shape has changed little between them (a 20 ms hop kept less of the phase cue on the leave-one-attack-out
 * folds).
 */
const FRAME = 512;
const HOP = 160;

/** A pitch track: frame i spans samples [hop·i, hop·i + frame), period[i] in samples, 0 where not voiced. */
export interface PitchTrack {
  readonly periods: Float64Array;
  readonly frame: number;
  readonly hop: number;
}

/** The analysed (voiced) frames and their harmonics. */
export interface HarmonicFrames {
  /** Analysed frames. */
  readonly count: number;
  /** Each analysed frame's position on the 10 ms grid (frame i starts at sample 160·i), ascending. */
  readonly position: Int32Array;
  /** DFT at k·F0 of analysed frame f, k = 1..HARMONICS: real parts at f·HARMONICS + k − 1. */
  readonly re: Float64Array;
  /** The imaginary parts, laid out as `re`. */
  readonly im: Float64Array;
}

/** The Hann window of a frame. */
const hann = Float64Array.from({ length: FRAME }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (FRAME - 1)));

/** The track's period at sample `centre`, interpolated between its frames; 0 when not voiced there. */
function periodAt(track: PitchTrack, centre: number): number {
  const x = (centre - track.frame / 2) / track.hop;
  const i = Math.max(0, Math.floor(x));
  const a = track.periods[i] ?? 0;
  const b = track.periods[i + 1] ?? 0;
  const t = Math.min(1, Math.max(0, x - i));
  if (a > 0 && b > 0) return Math.abs(a - b) < 0.1 * a ? a + t * (b - a) : t < 0.5 ? a : b;
  if (t < 0.5) return a;
  return b;
}

/**
 * The harmonics of every voiced 32 ms frame of speech with its silences trimmed (speechSamples, 16 kHz), F0
 * from `track` (harmonicity()'s, interpolated to these frames).
 *
 * @example
 * const { periods } = harmonicity(speech);
 * const frames = harmonicFrames(speech, { periods, frame: PITCH_FRAME, hop: PITCH_HOP });
 * Math.hypot(frames.re[0], frames.im[0]); // the first voiced frame's fundamental
 */
export function harmonicFrames(speech: Float32Array, track: PitchTrack): HarmonicFrames {
  const positions: number[] = [];
  const reValues: number[] = [];
  const imValues: number[] = [];
  const windowed = new Float64Array(FRAME);
  for (let start = 0, position = 0; start + FRAME <= speech.length; start += HOP, position++) {
    const period = periodAt(track, start + FRAME / 2);
    if (period <= 0 || (RATE / period) * HARMONICS > TOP_HZ) continue;
    // A DFT at exactly k·F0 for each harmonic (rotating phasors, no bin rounding), two harmonics per pass
    // over the windowed frame: each harmonic's recurrence in local variables, the two chains overlapping.
    for (let i = 0; i < FRAME; i++) windowed[i] = (speech[start + i] ?? 0) * (hann[i] ?? 0);
    positions.push(position);
    for (let k = 1; k <= HARMONICS; k += 2) {
      // With an odd HARMONICS the last pass computes its one harmonic twice.
      const l = Math.min(k + 1, HARMONICS);
      const stepK = (2 * Math.PI * k) / period;
      const stepL = (2 * Math.PI * l) / period;
      const csK = Math.cos(stepK);
      const snK = Math.sin(stepK);
      const csL = Math.cos(stepL);
      const snL = Math.sin(stepL);
      let cK = 1;
      let sK = 0;
      let reK = 0;
      let imK = 0;
      let cL = 1;
      let sL = 0;
      let reL = 0;
      let imL = 0;
      for (let i = 0; i < FRAME; i++) {
        const v = windowed[i] ?? 0;
        reK += v * cK;
        imK -= v * sK;
        const nextK = cK * csK - sK * snK;
        sK = sK * csK + cK * snK;
        cK = nextK;
        reL += v * cL;
        imL -= v * sL;
        const nextL = cL * csL - sL * snL;
        sL = sL * csL + cL * snL;
        cL = nextL;
      }
      reValues.push(reK);
      imValues.push(imK);
      if (l !== k) {
        reValues.push(reL);
        imValues.push(imL);
      }
    }
  }
  return {
    count: positions.length,
    position: Int32Array.from(positions),
    re: Float64Array.from(reValues),
    im: Float64Array.from(imValues),
  };
}

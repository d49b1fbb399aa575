/**
 * Harmonic phase coherence (synthetic-speech cue), after the relative phase shift (RPS) of Saratxaga, Sanchez
 * et al. ("Toward a universal synthetic speech spoofing detection using phase information", 2015). In a voiced
 * frame the phase of harmonic k at k·F0 less k times that of the fundamental, RPS_k = φ_k − k·φ_1, does not
 * depend on where the frame starts: it is the shape of one glottal cycle as the vocal tract filters it. A
 * human glottal cycle changes shape smoothly from one frame to the next, so RPS_k drifts slowly; a vocoder
 * rebuilds the phase from a model (a pulse train through a minimum-phase filter, mixed excitation, an LPC
 * residual re-used and re-pitched across diphone joins) and makes it either too steady (clustergen rms,
 * festival diphones) or jumpy (flite kal/slt/awb), and a replay's room reverberation scrambles it. The cue is
 * the circular concentration of the frame-to-frame change of RPS_k, averaged over k = 2..6.
 */

export interface HarmonicPhaseCues {
  /**
   * Mean over k = 2..6 of |mean over consecutive voiced frames of exp(i ΔRPS_k)|: 1 when the harmonics keep
   * their relative phases from frame to frame, ~0 when those change at random. Around 0.6 for read speech.
   */
  readonly coherence: number;
  /** Consecutive voiced frame pairs the coherence was taken over. */
  readonly pairs: number;
}

/** Highest harmonic analysed: RPS_2..RPS_6 (RPS_1 is 0 by definition). */
const HARMONICS = 6;
/** The top harmonic stays below this (Hz at 16 kHz): a frame whose F0 puts it higher is skipped. */
const TOP_HZ = 7000;
const RATE = 16_000;

const windows = new Map<number, Float64Array>();
function hannOf(length: number): Float64Array {
  let window = windows.get(length);
  if (window === undefined) {
    window = Float64Array.from({ length }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (length - 1)));
    windows.set(length, window);
  }
  return window;
}

/** A pitch track: frame i spans samples [hop·i, hop·i + frame), period[i] in samples, 0 where not voiced. */
export interface PitchTrack {
  readonly periods: Float64Array;
  readonly frame: number;
  readonly hop: number;
}

/**
 * 32 ms frames every 10 ms: consecutive frames share 70% of their samples, so that a human glottal cycle's
 * shape has changed little between them (a 20 ms hop kept less of the cue on the leave-one-attack-out folds).
 */
const FRAME = 512;
const HOP = 160;

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
 * The harmonic phase coherence of speech with its silences trimmed (speechSamples, 16 kHz), in 32 ms frames
 * every 10 ms voiced by the pitch track `track` (harmonicity()'s, interpolated to those frames).
 *
 * @example
 * const { periods } = harmonicity(speech);
 * harmonicPhase(speech, { periods, frame: PITCH_FRAME, hop: PITCH_HOP }).coherence; // ≈ 0.6 for read speech
 */
export function harmonicPhase(speech: Float32Array, track: PitchTrack): HarmonicPhaseCues {
  const frame = FRAME;
  const hop = HOP;
  const window = hannOf(frame);
  const deltaCos = new Float64Array(HARMONICS + 1);
  const deltaSin = new Float64Array(HARMONICS + 1);
  const rps = new Float64Array(HARMONICS + 1);
  const previous = new Float64Array(HARMONICS + 1);
  const accRe = new Float64Array(HARMONICS + 1);
  const accIm = new Float64Array(HARMONICS + 1);
  const windowed = new Float64Array(frame);
  let pairs = 0;
  let previousVoiced = false;
  for (let start = 0; start + frame <= speech.length; start += hop) {
    const period = periodAt(track, start + frame / 2);
    if (period <= 0 || (RATE / period) * HARMONICS > TOP_HZ) {
      previousVoiced = false;
      continue;
    }
    // A DFT at exactly k·F0 for each harmonic (rotating phasors, no bin rounding), two harmonics per pass
    // over the windowed frame: each harmonic's recurrence in local variables, the two chains overlapping.
    for (let i = 0; i < frame; i++) windowed[i] = (speech[start + i] ?? 0) * (window[i] ?? 0);
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
      for (let i = 0; i < frame; i++) {
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
      accRe[k] = reK;
      accIm[k] = imK;
      accRe[l] = reL;
      accIm[l] = imL;
    }
    const phase1 = Math.atan2(accIm[1] ?? 0, accRe[1] ?? 0);
    for (let k = 2; k <= HARMONICS; k++) {
      rps[k] = Math.atan2(accIm[k] ?? 0, accRe[k] ?? 0) - k * phase1;
      if (previousVoiced) {
        const delta = (rps[k] ?? 0) - (previous[k] ?? 0);
        deltaCos[k] = (deltaCos[k] ?? 0) + Math.cos(delta);
        deltaSin[k] = (deltaSin[k] ?? 0) + Math.sin(delta);
      }
      previous[k] = rps[k] ?? 0;
    }
    if (previousVoiced) pairs++;
    previousVoiced = true;
  }
  let coherence = 0;
  if (pairs > 0)
    for (let k = 2; k <= HARMONICS; k++) coherence += Math.hypot(deltaCos[k] ?? 0, deltaSin[k] ?? 0) / pairs;
  return { coherence: coherence / (HARMONICS - 1), pairs };
}

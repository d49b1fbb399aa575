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
import { HARMONICS, type HarmonicFrames } from './harmonic-frames.js';

export interface HarmonicPhaseCues {
  /**
   * Mean over k = 2..6 of |mean over consecutive voiced frames of exp(i ΔRPS_k)|: 1 when the harmonics keep
   * their relative phases from frame to frame, ~0 when those change at random. Around 0.6 for read speech.
   */
  readonly coherence: number;
  /** Consecutive voiced frame pairs the coherence was taken over. */
  readonly pairs: number;
}

/**
 * The harmonic phase coherence of voiced speech frames' harmonics (harmonicFrames): RPS_k of each frame, its
 * change from the frame before when that one (10 ms earlier) was analysed too.
 *
 * @example
 * const { periods } = harmonicity(speech);
 * harmonicPhase(harmonicFrames(speech, { periods, frame: PITCH_FRAME, hop: PITCH_HOP })).coherence; // ≈ 0.6
 */
export function harmonicPhase(frames: HarmonicFrames): HarmonicPhaseCues {
  const deltaCos = new Float64Array(HARMONICS + 1);
  const deltaSin = new Float64Array(HARMONICS + 1);
  const previous = new Float64Array(HARMONICS + 1);
  let pairs = 0;
  for (let f = 0; f < frames.count; f++) {
    const follows = f > 0 && frames.position[f] === (frames.position[f - 1] ?? 0) + 1;
    const base = f * HARMONICS;
    const phase1 = Math.atan2(frames.im[base] ?? 0, frames.re[base] ?? 0);
    for (let k = 2; k <= HARMONICS; k++) {
      const rps = Math.atan2(frames.im[base + k - 1] ?? 0, frames.re[base + k - 1] ?? 0) - k * phase1;
      if (follows) {
        const delta = rps - (previous[k] ?? 0);
        deltaCos[k] = (deltaCos[k] ?? 0) + Math.cos(delta);
        deltaSin[k] = (deltaSin[k] ?? 0) + Math.sin(delta);
      }
      previous[k] = rps;
    }
    if (follows) pairs++;
  }
  let coherence = 0;
  if (pairs > 0)
    for (let k = 2; k <= HARMONICS; k++) coherence += Math.hypot(deltaCos[k] ?? 0, deltaSin[k] ?? 0) / pairs;
  return { coherence: coherence / (HARMONICS - 1), pairs };
}

import { dot } from '../src/lib/vectors.js';
import type { LabelledImage } from './face-dataset.js';
import { sortScores, type SortedScores } from './verification-metrics.js';

/** A pair's score when an image of it has no template (a failure to acquire): a non-match at any threshold. */
const NOT_ACQUIRED = -Infinity;

/** Genuine and impostor scores twice: over the acquired pairs only, and with every pair counted. */
export interface AcquisitionScores {
  /** The matcher's view (FNMR / FMR): pairs with an image not acquired left out. */
  readonly matcher: SortedScores;
  /** The system's view (ISO/IEC 19795-1 FRR / FAR): such a pair counted as a non-match. */
  readonly system: SortedScores;
}

/**
 * The cosine of every pair of `images`, genuine or impostor by identity, from their template vectors
 * (undefined: the image was not acquired). Without `gallery`: every unordered pair of `probes`; with it:
 * every probe against every other image's gallery vector.
 *
 * @example
 * const { matcher, system } = acquisitionPairScores(images, vectors);
 * fnmrAtFmr(system, 1e-3); // FRR at FAR 1e-3, a refused photo counted as a non-match
 */
export function acquisitionPairScores(
  images: readonly LabelledImage[],
  probes: ReadonlyArray<Float32Array | undefined>,
  gallery?: ReadonlyArray<Float32Array | undefined>,
): AcquisitionScores {
  const genuine: number[] = [];
  const impostor: number[] = [];
  for (const [i, first] of images.entries()) {
    const a = probes[i];
    for (let j = gallery === undefined ? i + 1 : 0; j < images.length; j++) {
      if (j === i) continue;
      const b = (gallery ?? probes)[j];
      (first.identity === images[j]?.identity ? genuine : impostor).push(a && b ? dot(a, b) : NOT_ACQUIRED);
    }
  }
  const acquiredOnly = (scores: readonly number[]) => Float64Array.from(scores.filter((x) => x !== NOT_ACQUIRED));
  return {
    matcher: sortScores({ genuine: acquiredOnly(genuine), impostor: acquiredOnly(impostor) }),
    system: sortScores({ genuine: Float64Array.from(genuine), impostor: Float64Array.from(impostor) }),
  };
}

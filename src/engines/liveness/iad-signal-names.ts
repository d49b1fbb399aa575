/**
 * The injection-attack-detection vocabulary (spec Doc 2 A, `IAD.signals`): the signal names and the
 * modes a signal can take. The engine computes these signals and the configuration
 * (`VERIPORT_IAD_MODES`) is validated against the same lists.
 */

/**
 * Every signal a liveness result reports, in the order it reports them. `facial_motion_analysis`,
 * `planar_motion_detection` and `temporal_noise_analysis` are extensions beyond the spec's list
 * (docs/liveness.md).
 */
export const IAD_SIGNAL_NAMES = [
  'code_injection_detection',
  'emulator_detection',
  'face_swap_detection',
  'facial_motion_analysis',
  'image_similarity_detection',
  'optical_analysis',
  'planar_motion_detection',
  'rooted_mobile_detection',
  'sensor_detection',
  'spectral_analysis',
  'suspicious_border_detection',
  'temporal_noise_analysis',
  'virtual_camera_detection',
] as const;

export type IadSignalName = (typeof IAD_SIGNAL_NAMES)[number];

/** DECISIONING: a FAIL decides the result; REPORT_ONLY: the status is only reported. */
export const SIGNAL_MODES = ['DECISIONING', 'REPORT_ONLY'] as const;

export type SignalMode = (typeof SIGNAL_MODES)[number];

/**
 * Whether a name is one of the injection-attack signals.
 *
 * @example
 * isIadSignalName('spectral_analysis'); // true
 * isIadSignalName('spectral'); // false
 */
export function isIadSignalName(name: string): name is IadSignalName {
  return (IAD_SIGNAL_NAMES as readonly string[]).includes(name);
}

/**
 * Whether a word is a signal mode.
 *
 * @example
 * isSignalMode('REPORT_ONLY'); // true
 * isSignalMode('report_only'); // false
 */
export function isSignalMode(mode: string): mode is SignalMode {
  return (SIGNAL_MODES as readonly string[]).includes(mode);
}

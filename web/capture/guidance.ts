/**
 * Live guidance from face liveness's autocapture feedback (`POST /face-liveness/analyze`, Doc 2 codes): what
 * to tell the user about a preview frame. The frame is the camera's (not mirrored), so the face on the
 * image's left is the user standing too far to their right.
 */
const MESSAGES: Readonly<Record<string, string>> = {
  NO_FACE_DETECTED: 'No face found: look into the camera.',
  MULTIPLE_FACES_DETECTED: 'More than one face: make sure only you are in the picture.',
  FACE_TOO_FAR: 'Move closer to the camera.',
  FACE_TOO_CLOSE: 'Move back a little.',
  FACE_ON_LEFT: 'Move a little to your left.',
  FACE_ON_RIGHT: 'Move a little to your right.',
  FACE_TOO_HIGH: 'Lower the phone a little, or move your face down.',
  FACE_TOO_LOW: 'Raise the phone a little, or move your face up.',
  INVALID_POSE: 'Look straight at the camera.',
  INSUFFICIENT_LIGHTING: 'Find more light: face a window or a lamp.',
  LIGHT_TOO_BRIGHT: 'Too bright: move out of direct light.',
  TOO_MUCH_BLUR: 'Hold the phone still.',
  IMAGE_RESOLUTION_TOO_LOW: 'This camera gives too small a picture.',
};

/**
 * The user-facing sentences for autocapture feedback codes; none when the frame is fit to capture. Codes
 * this app does not know are shown as they are.
 *
 * @example
 * guidanceMessages(['FACE_TOO_FAR', 'INSUFFICIENT_LIGHTING']);
 * // ['Move closer to the camera.', 'Find more light: face a window or a lamp.']
 */
export function guidanceMessages(feedback: readonly string[]): string[] {
  return feedback.map((code) => MESSAGES[code] ?? code.toLowerCase().replace(/_/g, ' '));
}

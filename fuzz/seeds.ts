/**
 * Valid-looking bodies of the routes whose schema alone rarely yields a body that passes validation
 * (values the schema types as free strings, like a liveness workflow name), so that mutations reach the
 * image decoding and the domain checks behind validation. `IMAGE` marks where a (bad) image goes. A
 * route without a seed is fuzzed from its schema only; a new route needs none.
 */
export const IMAGE = 'FUZZ_IMAGE';
/** Where a (bad) image goes sealed in an envelope with the onboarding frame key, as a frame's `data`. */
export const SEALED_IMAGE = 'FUZZ_SEALED_IMAGE';

const frames = [
  { data: IMAGE, timestamp: 1000 },
  { data: IMAGE, timestamp: 1100 },
];
const video = (workflow: string) => ({ video: { workflow_data: { workflow, frames } } });
const face = { VISIBLE_FRONTAL: IMAGE };
const voice = { voiceSamples: [{ data: IMAGE, voiceSampleType: 'TEXT_INDEPENDENT' }], minVoiceLengthSeconds: 1 };

/**
 * An onboarding `faceLivenessData` package of sealed frames. The `FUZZ_*` tokens are placeholders
 * (fuzz/requests.ts) for fresh onboarding state, filled at send time.
 */
const faceLivenessData = {
  video: {
    workflow_data: {
      workflow: 'hotel2',
      rotation: 0,
      frames: [
        { data: SEALED_IMAGE, tags: [], timestamp: 1000 },
        { data: SEALED_IMAGE, tags: [], timestamp: 1100 },
      ],
      timestamp: 1200,
    },
    meta_data: { client_device_brand: 'fuzz', username: 'fuzz', client_version: 'fuzz/1' },
    client_version: 'fuzz/1',
  },
};

/** Seed bodies by operation key. */
export const SEEDS: Readonly<Record<string, unknown>> = {
  'POST /face-liveness/checkLiveness': video('hotel2'),
  'POST /face-liveness/analyze': video('charlie4'),
  'POST /face-liveness/checkActiveLiveness': video('active_left'),
  'POST /face-matching/compare': { probe: face, gallery: face },
  'POST /face-matching/verify/{cacheName}': { probe: face, id: 'e1' },
  'POST /face-matching/add/{cacheName}': { encounter: { id: 'e1', ...face } },
  'POST /face-matching/update/{cacheName}': { encounter: { id: 'e1', ...face } },
  'POST /face-matching/identify/{cacheName}': { probe: face },
  'POST /face-matching/export': { encounter: face },
  'POST /face-matching/exportAlgorithmTemplate': { encounter: face },
  'POST /face-analysis/analyzeImage': { images: [{ id: 1, input: { imageData: IMAGE }, output: [] }] },
  // A (bad) image where a voice recording goes: it must be refused as a recording, never a 5xx.
  'POST /voice-liveness/analyze': { voice: { voiceSamples: [{ data: IMAGE }], workflow: 'alfa4' } },
  'POST /voice-liveness/calculateVoiceLength': { voice: { voiceSamples: [{ data: IMAGE }] } },
  'POST /voice-matching/compare': { probe: voice, gallery: voice },
  'POST /voice-matching/verify/{cacheName}': { probe: voice, id: 'e1' },
  'POST /voice-matching/add/{cacheName}': { encounter: { id: 'e1', ...voice } },
  'POST /voice-matching/identify/{cacheName}': { probe: voice },
  'POST /voice-matching/export': { encounter: voice, workflow: { comparator: { algorithm: 'V900' } } },
  'POST /onboarding/enrollment/addFace': { enrollmentToken: 'FUZZ_ENROLLMENT_TOKEN', faceLivenessData },
  'POST /onboarding/authentication/authenticate': {
    registrationCode: 'FUZZ_REGISTRATION_CODE',
    deviceId: 'FUZZ_DEVICE_ID',
  },
  'POST /onboarding/authentication/verifyDevice': {
    authToken: 'FUZZ_STARTED_AUTH_TOKEN',
    signature: 'FUZZ_DEVICE_SIGNATURE',
    deviceId: 'FUZZ_DEVICE_ID',
  },
  'POST /onboarding/authentication/verifyFace': { authToken: 'FUZZ_AUTH_TOKEN', faceLivenessData },
};

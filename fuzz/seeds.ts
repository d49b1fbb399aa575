/**
 * Valid-looking bodies of the routes whose schema alone rarely yields a body that passes validation
 * (values the schema types as free strings, like a liveness workflow name), so that mutations reach the
 * image decoding and the domain checks behind validation. `IMAGE` marks where a (bad) image goes. A
 * route without a seed is fuzzed from its schema only; a new route needs none.
 */
export const IMAGE = 'FUZZ_IMAGE';

const frames = [
  { data: IMAGE, timestamp: 1000 },
  { data: IMAGE, timestamp: 1100 },
];
const video = (workflow: string) => ({ video: { workflow_data: { workflow, frames } } });
const face = { VISIBLE_FRONTAL: IMAGE };

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
};

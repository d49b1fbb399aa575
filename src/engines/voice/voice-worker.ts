/**
 * Piscina worker of the voice engine: decodes one sample at a time and runs the voice models on this
 * thread (the Silero VAD session opens once, at warm-up or the first task), so the server's event loop
 * never waits on them.
 */
import { loadVoiceActivityModel } from './voice-activity.js';
import { checkVoiceModels } from './voice-models.js';
import { sampleLiveness } from './voice-liveness-analysis.js';
import { analyzeSample, measurementOf, type AnalyzedSample } from './voice-sample-analysis.js';
import { VoiceSampleError } from './voice-sample-error.js';
import { sampleTemplates } from './voice-templating.js';
import type { VoiceMeasurement, VoiceOutcome, VoiceTask, VoiceTaskKind, VoiceTaskMap } from './voice-tasks.js';

type Handlers = {
  readonly [K in VoiceTaskKind]: (
    sample: AnalyzedSample,
    measurement: VoiceMeasurement,
    input: VoiceTaskMap[K]['input'],
  ) => Promise<VoiceTaskMap[K]['output']> | VoiceTaskMap[K]['output'];
};

/** One handler per task kind; each receives the decoded sample with its voice activity and measurement. */
const HANDLERS: Handlers = {
  measure: (_sample, measurement) => measurement,
  template: (sample, measurement, input) => sampleTemplates(sample, measurement, input),
  liveness: (sample, measurement) => sampleLiveness(sample, measurement),
};

async function runTask<K extends VoiceTaskKind>(
  kind: K,
  input: VoiceTaskMap[K]['input'],
  sample: AnalyzedSample,
): Promise<VoiceTaskMap[K]['output']> {
  const handler: Handlers[K] = HANDLERS[kind];
  return handler(sample, measurementOf(sample), input);
}

/** Loads the voice models (VAD session, spoof and speaker models); the engine's warm-up. */
export async function warm(): Promise<void> {
  checkVoiceModels();
  await loadVoiceActivityModel();
}

/** Runs one task; an unusable sample comes back as a value, anything else throws. */
export default async function voiceTask(task: VoiceTask): Promise<VoiceOutcome> {
  try {
    const sample = await analyzeSample(task.sample);
    return { ok: true, output: await runTask(task.kind, task, sample) };
  } catch (error) {
    if (error instanceof VoiceSampleError) return { ok: false, reason: error.reason, message: error.message };
    throw error;
  }
}

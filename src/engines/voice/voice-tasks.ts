import type { VoiceAudio } from './voice-decoding.js';
import type { VoiceLivenessOutput } from './voice-liveness-analysis.js';
import type { VoiceSampleProblem } from './voice-sample-error.js';
import type { VoiceTemplateInput, VoiceTemplateOutput } from './voice-templating.js';

/** What the `measure` task reports of one voice sample. */
export interface VoiceMeasurement {
  /** Seconds of audio after decoding. */
  readonly durationSeconds: number;
  /** Seconds of speech found by the voice activity detector (Doc 2 D's voiceLengthSeconds). */
  readonly speechSeconds: number;
  readonly clippedShare: number;
  readonly format: VoiceAudio['format'];
  readonly sourceSampleRate: number;
  readonly sourceChannels: number;
}

/**
 * The voice worker's tasks: for each kind, what the engine sends (`input`, with the encoded sample in
 * `sample`) and what comes back (`output`). A new task is one entry here, one handler in voice-worker.ts
 * and one method on VoiceEngine; decoding, voice activity and the error path are shared.
 */
export interface VoiceTaskMap {
  readonly measure: { readonly input: { readonly sample: Uint8Array }; readonly output: VoiceMeasurement };
  /** Speaker vectors of the sample's speech (voice-templating.ts): voice matching's samples. */
  readonly template: {
    readonly input: { readonly sample: Uint8Array } & VoiceTemplateInput;
    readonly output: VoiceTemplateOutput;
  };
  /** Live or spoof (voice-liveness-analysis.ts): the voice-liveness service's `/analyze`. */
  readonly liveness: { readonly input: { readonly sample: Uint8Array }; readonly output: VoiceLivenessOutput };
}

export type VoiceTaskKind = keyof VoiceTaskMap;

/** One task as it travels to a worker. */
export type VoiceTask = {
  readonly [K in VoiceTaskKind]: { readonly kind: K } & VoiceTaskMap[K]['input'];
}[VoiceTaskKind];

/** A task's answer: its output, or why its sample could not be used (errors lose their class between threads). */
export type VoiceOutcome<K extends VoiceTaskKind = VoiceTaskKind> =
  | { readonly ok: true; readonly output: VoiceTaskMap[K]['output'] }
  | { readonly ok: false; readonly reason: VoiceSampleProblem; readonly message: string };

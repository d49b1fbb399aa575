/**
 * The voice engine's model files, checked together at start: a malformed or outdated file stops the engine
 * (and the server, which imports this at start) with an error naming the file, instead of failing every
 * request that needs it with a 500. The calibration tables are checked the same way when
 * voice-calibration.ts loads.
 */
import { loadSpeakerModel } from './speaker-model.js';
import { loadVoiceSpoofModel } from './voice-spoof-classifier.js';

/** One model file and the loader that parses and checks it (throws naming what is wrong). */
export interface VoiceModelFile {
  readonly file: string;
  readonly load: () => unknown;
}

/** The model files the shipped voice engine runs on. */
export const SHIPPED_VOICE_MODELS: readonly VoiceModelFile[] = [
  { file: 'src/engines/voice/voice-spoof-model.json', load: loadVoiceSpoofModel },
  { file: 'src/engines/voice/speaker-model.json', load: loadSpeakerModel },
];

/** A model file the voice engine cannot run on. */
export class VoiceModelError extends Error {
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    super(`voice engine cannot start: ${file}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'VoiceModelError';
  }
}

/**
 * Loads and checks every model file (each loader caches what it parsed, so the first request finds them
 * ready).
 *
 * @example
 * checkVoiceModels(); // at start: throws VoiceModelError for a malformed voice-spoof-model.json
 * @throws {VoiceModelError} naming the first file that does not load and why
 */
export function checkVoiceModels(models: readonly VoiceModelFile[] = SHIPPED_VOICE_MODELS): void {
  for (const model of models) {
    try {
      model.load();
    } catch (error) {
      throw new VoiceModelError(model.file, error);
    }
  }
}

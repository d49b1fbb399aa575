import type { Piscina } from 'piscina';
import { engineWorkerFile, startEnginePool } from '../worker-pool.js';
import { VoiceSampleError } from './voice-sample-error.js';
import type { VoiceAlgorithmName } from './voice-algorithms.js';
import type { VoiceLivenessOutput } from './voice-liveness-analysis.js';
import type { VoiceMeasurement, VoiceOutcome, VoiceTask, VoiceTaskKind, VoiceTaskMap } from './voice-tasks.js';
import type { VoiceTemplateOutput } from './voice-templating.js';
import { checkVoiceModels, type VoiceModelFile } from './voice-models.js';

export interface VoiceEngineConfig {
  /** Worker threads, each with its own voice models (the VAD session is ~10 MB). Default 1. */
  readonly workers: number;
  /** The model files checked before the pool starts (default: the shipped ones; tests pass broken ones). */
  readonly models?: readonly VoiceModelFile[];
}

const WORKER_FILE = engineWorkerFile('./voice-worker', import.meta.url);

/**
 * The voice engine: a pool of worker threads that decode voice samples and run the voice models on them,
 * off the event loop (a 5 s sample takes tens of milliseconds of decoding, resampling and per-frame
 * inference).
 *
 * @example
 * const engine = VoiceEngine.start({ workers: 2 });
 * const { speechSeconds } = await engine.measure(wavBytes);
 * await engine.close();
 */
export class VoiceEngine {
  private constructor(private readonly pool: Piscina<VoiceTask, VoiceOutcome>) {}

  /**
   * Checks the model files, then starts the worker threads (each loads the models again at warm-up or at its
   * first task).
   *
   * @throws {VoiceModelError} when a model file is malformed or outdated; no thread is started then
   */
  static start(config: Partial<VoiceEngineConfig> = {}): VoiceEngine {
    checkVoiceModels(config.models);
    return new VoiceEngine(startEnginePool<VoiceTask, VoiceOutcome>(WORKER_FILE, config.workers ?? 1));
  }

  /** Loads the models in every worker now rather than on the first request. */
  async warm(): Promise<void> {
    await Promise.all(
      Array.from({ length: this.pool.options.maxThreads }, () =>
        this.pool.run({ kind: 'measure', sample: new Uint8Array() }, { name: 'warm' }),
      ),
    );
  }

  /**
   * Decodes a sample and measures it: duration, seconds of speech, clipping, source format.
   *
   * @throws {VoiceSampleError} when the sample is undecodable, empty or too long
   */
  measure(sample: Uint8Array): Promise<VoiceMeasurement> {
    return this.run({ kind: 'measure', sample });
  }

  /**
   * Decodes a sample and computes the speaker vector of its speech for each algorithm, when it holds at least
   * `minSpeechSeconds` of speech (0.25 s at least): voice-templating.ts.
   *
   * @throws {VoiceSampleError} when the sample is undecodable, empty or too long
   */
  template(
    sample: Uint8Array,
    algorithms: readonly VoiceAlgorithmName[],
    minSpeechSeconds: number,
  ): Promise<VoiceTemplateOutput> {
    return this.run({ kind: 'template', sample, algorithms, minSpeechSeconds });
  }

  /**
   * Decodes a sample and judges it live or spoof, or says why it cannot be judged (no speech, too little,
   * clipped): voice-liveness-analysis.ts.
   *
   * @throws {VoiceSampleError} when the sample is undecodable, empty or too long
   */
  liveness(sample: Uint8Array): Promise<VoiceLivenessOutput> {
    return this.run({ kind: 'liveness', sample });
  }

  /** Runs a task on a worker and turns an unusable-sample answer back into a VoiceSampleError. */
  protected async run<K extends VoiceTaskKind>(
    task: { readonly kind: K } & VoiceTaskMap[K]['input'] & VoiceTask,
  ): Promise<VoiceTaskMap[K]['output']> {
    // The worker answers a task of kind K with K's output (voice-worker.ts, runTask).
    const outcome = (await this.pool.run(task)) as VoiceOutcome<K>;
    if (!outcome.ok) throw new VoiceSampleError(outcome.reason, outcome.message);
    return outcome.output;
  }

  get workers(): number {
    return this.pool.options.maxThreads;
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}

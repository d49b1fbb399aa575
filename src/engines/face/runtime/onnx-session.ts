import { readFileSync } from 'node:fs';
import { InferenceSession } from 'onnxruntime-node';

/**
 * Opens an onnxruntime session for a model built in memory, on the CPU binary that ships in
 * onnxruntime-node, with one thread: a face worker handles one image at a time and the worker pool
 * gives the parallelism (face-engine.ts). 'all' optimisations include onnxruntime's blocked (NCHWc)
 * conv layout, which fuses a conv with its following add and activation; measured on the face models,
 * the memory arena, memory patterns, denormals-as-zero and 'extended' instead of 'all' gain nothing or
 * lose (BlazeFace 8.7 ms with 'all', 19.6 with 'extended').
 *
 * @example
 * const session = await openCpuSession(faceRecognitionModel());
 */
export function openCpuSession(model: Uint8Array): Promise<InferenceSession> {
  return InferenceSession.create(model, {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
}

let channelBlock: number | undefined;

/**
 * The channel block of onnxruntime's blocked conv layout on this CPU: 16 with AVX-512 (what its MLAS
 * library picks then), else 1 (with AVX2 the block is 8, and the models' channel counts are already
 * multiples of 8; elsewhere the layout is not used). A model whose channels are not a multiple of the
 * block makes onnxruntime reorder activations around pools, pads and adds; graph-model-onnx.ts pads
 * such channels with zeros instead. Read once from /proc/cpuinfo (Linux); 1 where it cannot be read.
 *
 * @example
 * const model = graphModelToOnnx(path, [1, 256, 256, 3], { channelBlock: onnxChannelBlock() });
 */
export function onnxChannelBlock(): number {
  if (channelBlock === undefined) {
    let flags = '';
    try {
      flags = readFileSync('/proc/cpuinfo', 'utf8');
    } catch {
      // Not Linux: no padding.
    }
    channelBlock = /^flags\s*:.*\bavx512f\b/m.test(flags) ? 16 : 1;
  }
  return channelBlock;
}

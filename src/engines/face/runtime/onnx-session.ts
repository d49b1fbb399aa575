import { InferenceSession } from 'onnxruntime-node';

/**
 * Opens an onnxruntime session for a model built in memory, on the CPU binary that ships in
 * onnxruntime-node, with one thread: a face worker handles one image at a time and the worker pool
 * gives the parallelism (face-engine.ts).
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

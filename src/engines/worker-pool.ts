import { Piscina } from 'piscina';

/**
 * The worker file of an engine next to the module that starts it: the .ts source under tsx, the compiled
 * .js in the build.
 *
 * @example
 * const file = engineWorkerFile('./voice-worker', import.meta.url);
 */
export function engineWorkerFile(relativeStem: string, moduleUrl: string): URL {
  return new URL(`${relativeStem}${moduleUrl.endsWith('.ts') ? '.ts' : '.js'}`, moduleUrl);
}

/**
 * A piscina pool whose `destroy()` first lets the tasks already handed to it finish, then stops the threads
 * (piscina's `close()`), rather than terminating a thread in the middle of a task. A thread terminated while
 * its onnxruntime session runs aborts the whole process: the native binding's call fails on the stopping
 * thread and throws a C++ `Napi::Error` that nothing can catch (SIGABRT, "terminate called after throwing an
 * instance of 'Napi::Error'"). A task can outlive the request that started it: a request over several samples
 * answers 400 as soon as one sample is refused (Promise.all) while another is still running in a worker, and a
 * server stopped right then terminated that worker mid-inference. The engines' `close()` call `destroy()`.
 */
class EnginePool<Task, Outcome> extends Piscina<Task, Outcome> {
  override destroy(): Promise<void> {
    return this.close();
  }
}

/**
 * A piscina pool as the engines run theirs: a fixed number of threads that live as long as the pool, one
 * task at a time per thread (every model runs single-threaded: the threads are the parallelism), first come
 * first served. By default piscina moves a queued task it could not hand to a busy worker to the back of the
 * queue, so under load some tasks waited behind every later one (a face compare's second image up to 9 s at
 * 4 concurrent compares; docs/benchmarks.md): `stricterFIFO` keeps the order. Destroying the pool waits for
 * the tasks in flight (EnginePool).
 *
 * @example
 * const pool = startEnginePool<Task, Outcome>(engineWorkerFile('./voice-worker', import.meta.url), 2);
 */
export function startEnginePool<Task, Outcome>(
  file: URL,
  workers: number,
  workerData?: unknown,
): Piscina<Task, Outcome> {
  const threads = Math.max(1, workers);
  return new EnginePool<Task, Outcome>({
    filename: file.href,
    minThreads: threads,
    maxThreads: threads,
    concurrentTasksPerWorker: 1,
    stricterFIFO: true,
    idleTimeout: Number.POSITIVE_INFINITY,
    workerData,
  });
}

import { createRequire } from 'node:module';
import type { CV } from '@techstark/opencv-js';

/** The OpenCV.js module (`@techstark/opencv-js`, OpenCV 4.12 compiled to WebAssembly; Apache-2.0). */
export type OpenCv = CV;

/** What the Emscripten module object carries besides the OpenCV API while its WebAssembly starts. */
interface EmscriptenModule {
  Mat?: unknown;
  onRuntimeInitialized?: () => void;
}

let loading: Promise<OpenCv> | undefined;

/** The process handlers present before the runtime loads. */
interface ProcessHandlers {
  readonly uncaughtException: readonly unknown[];
  readonly unhandledRejection: readonly unknown[];
}

const processHandlers = (): ProcessHandlers => ({
  uncaughtException: process.listeners('uncaughtException'),
  unhandledRejection: process.listeners('unhandledRejection'),
});

/**
 * The Emscripten runtime of the build registers process handlers that rethrow every uncaught exception
 * (Node then prints the 10 MB source line of opencv.js) and abort on any unhandled rejection, in
 * whatever process loads it: they are not the application's to decide, so they are taken off again.
 */
function removeAddedListeners(before: ProcessHandlers): void {
  for (const listener of process.listeners('uncaughtException')) {
    if (!before.uncaughtException.includes(listener)) process.removeListener('uncaughtException', listener);
  }
  for (const listener of process.listeners('unhandledRejection')) {
    if (!before.unhandledRejection.includes(listener)) process.removeListener('unhandledRejection', listener);
  }
}

/**
 * OpenCV, loaded once per process or worker thread: about 1 s and 130 MB the first time, then the same
 * module. The module object is a thenable whose `then` never settles in Node, so it is never awaited:
 * this waits for Emscripten's `onRuntimeInitialized` and resolves with a wrapper-free reference.
 *
 * @example
 * const cv = await loadOpenCv();
 * const mat = new cv.Mat(480, 640, cv.CV_8UC1);
 * mat.delete();
 */
export function loadOpenCv(): Promise<OpenCv> {
  loading ??= new Promise<OpenCv>((resolve) => {
    const require = createRequire(import.meta.url);
    const before = processHandlers();
    // The package's main file is the UMD build; its type declarations describe the initialised module.
    const module = require('@techstark/opencv-js') as OpenCv & EmscriptenModule;
    removeAddedListeners(before);
    // Resolving with the module itself would make the promise adopt its `then`; a box avoids that.
    const ready = () => resolve(unthenable(module));
    if (module.Mat) ready();
    else module.onRuntimeInitialized = ready;
  });
  return loading;
}

/** The module with `then` hidden, so promises resolve to it instead of waiting on Emscripten's thenable. */
function unthenable(module: OpenCv): OpenCv {
  return new Proxy(module, {
    get: (target, key, receiver) => (key === 'then' ? undefined : Reflect.get(target, key, receiver)) as unknown,
  });
}

/**
 * An OpenCV.js constant as a number: the typings declare several enumerations (interpolation, rotation,
 * threshold and contour flags) as `any`.
 *
 * @example
 * cv.resize(src, dst, size, 0, 0, cvFlag(cv.INTER_AREA));
 */
export function cvFlag(value: unknown): number {
  if (typeof value !== 'number') throw new TypeError('not an OpenCV constant');
  return value;
}

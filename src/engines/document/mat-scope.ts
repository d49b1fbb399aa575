/** Anything OpenCV.js allocates on its WebAssembly heap (Mat, MatVector…): freed only by `delete()`. */
export interface Deletable {
  delete(): void;
}

/**
 * Frees every OpenCV object a computation allocates, however it ends: OpenCV.js objects live on the
 * WebAssembly heap, which the garbage collector does not see.
 *
 * @example
 * const result = withMats((keep) => {
 *   const gray = keep(new cv.Mat());
 *   cv.cvtColor(rgb, gray, cv.COLOR_RGB2GRAY);
 *   return cv.mean(gray)[0];
 * });
 */
export function withMats<T>(compute: (keep: <M extends Deletable>(mat: M) => M) => T): T {
  const held: Deletable[] = [];
  try {
    return compute((mat) => {
      held.push(mat);
      return mat;
    });
  } finally {
    for (const mat of held.reverse()) mat.delete();
  }
}

/**
 * withMats for a computation that awaits: the objects are freed when its promise settles.
 *
 * @example
 * const lines = await withMatsAsync(async (keep) => {
 *   const gray = keep(new cv.Mat(h, w, cv.CV_8UC1));
 *   return recognizer.recognizeBatch(mrzLineImages(cv, gray, band));
 * });
 */
export async function withMatsAsync<T>(compute: (keep: <M extends Deletable>(mat: M) => M) => Promise<T>): Promise<T> {
  const held: Deletable[] = [];
  try {
    return await compute((mat) => {
      held.push(mat);
      return mat;
    });
  } finally {
    for (const mat of held.reverse()) mat.delete();
  }
}

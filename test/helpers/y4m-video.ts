import { writeFile } from 'node:fs/promises';

/**
 * A YUV4MPEG2 video (the format Chromium's `--use-file-for-fake-video-capture` plays as the camera, looping)
 * of raw RGB frames: 4:2:0 planes, BT.601 limited range (what a camera's video is), `fps` frames a second.
 *
 * @example
 * const video = await simulatedRawCapture(testFaceEngine(), await photoFrame('anna'), { count: 10 });
 * await writeY4m('/tmp/anna.y4m', video, 5);
 */
export async function writeY4m(
  path: string,
  video: { readonly width: number; readonly height: number; readonly frames: readonly Uint8Array[] },
  fps: number,
): Promise<void> {
  const { width, height } = video;
  if (width % 2 !== 0 || height % 2 !== 0) throw new RangeError('4:2:0 needs an even width and height');
  const parts: Buffer[] = [Buffer.from(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`, 'ascii')];
  for (const rgb of video.frames) {
    if (rgb.length !== width * height * 3) throw new RangeError('a frame is not width × height RGB');
    parts.push(Buffer.from('FRAME\n', 'ascii'), i420(rgb, width, height));
  }
  await writeFile(path, Buffer.concat(parts));
}

/** Interleaved RGB to I420 (Y plane, then U and V at half resolution, each the mean of a 2×2 block). */
function i420(rgb: Uint8Array, width: number, height: number): Buffer {
  const out = Buffer.alloc((width * height * 3) / 2);
  const chroma = width * height;
  const quarter = chroma / 4;
  const at = (x: number, y: number, c: number) => rgb[(y * width + x) * 3 + c] ?? 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const r = at(x, y, 0);
      const g = at(x, y, 1);
      const b = at(x, y, 2);
      out[y * width + x] = Math.round(16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255);
    }
  }
  for (let y = 0; y < height; y += 2) {
    for (let x = 0; x < width; x += 2) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        r += at(x + dx, y + dy, 0) / 4;
        g += at(x + dx, y + dy, 1) / 4;
        b += at(x + dx, y + dy, 2) / 4;
      }
      const i = (y / 2) * (width / 2) + x / 2;
      out[chroma + i] = Math.round(128 + (-37.797 * r - 74.203 * g + 112 * b) / 255);
      out[chroma + quarter + i] = Math.round(128 + (112 * r - 93.786 * g - 18.214 * b) / 255);
    }
  }
  return out;
}

/** An 8-bit RGB image held as interleaved bytes, row by row. */
export interface RgbImage {
  readonly data: Uint8Array;
  readonly width: number;
  readonly height: number;
}

export type Point = readonly [number, number];

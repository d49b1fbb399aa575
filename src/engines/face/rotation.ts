/**
 * The clockwise quarter turns a capture app may ask for (requests' `rotation`), applied to an image
 * after its EXIF orientation.
 */
export const ROTATIONS = [0, 90, 180, 270] as const;

export type Rotation = (typeof ROTATIONS)[number];

/**
 * Whether a number is one of the rotations.
 *
 * @example
 * isRotation(90); // true
 * isRotation(45); // false
 */
export function isRotation(value: number): value is Rotation {
  return (ROTATIONS as readonly number[]).includes(value);
}

/**
 * Whether the rotation turns the image on its side, swapping its width and height.
 *
 * @example
 * const [width, height] = swapsSides(rotation) ? [header.height, header.width] : [header.width, header.height];
 */
export function swapsSides(rotation: Rotation): boolean {
  return rotation === 90 || rotation === 270;
}
